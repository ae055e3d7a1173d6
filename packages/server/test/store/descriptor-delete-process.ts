// A second process deleting one descriptor from a shared store, for the cross-process descriptor cache test.
// Usage: node --import tsx descriptor-delete-process.ts <store spec> <descriptor resource> <namespace> <code value>
import { getModelRegistry } from '../../src/model/index.js';
import { openStore } from '../../src/store/index.js';

const [spec, descriptor, namespace, codeValue] = process.argv.slice(2);
if (!spec || !descriptor || !namespace || !codeValue) throw new Error('Usage: <spec> <descriptor> <namespace> <code>');
const resource = getModelRegistry().getResourceByName(descriptor, 'ed-fi');
if (!resource) throw new Error(`No descriptor ${descriptor}`);
const store = await openStore(spec);
const { items } = await store.list(resource, {
  filters: [
    { field: 'namespace', value: namespace },
    { field: 'codeValue', value: codeValue },
  ],
  offset: 0,
  limit: 1,
  totalCount: false,
});
if (items.length !== 1) throw new Error(`No ${namespace}#${codeValue} to delete`);
await store.delete(resource, items[0]!.id);
await store.close();
process.stdout.write('deleted\n');
