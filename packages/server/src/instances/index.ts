// Public surface of instances: the `--instances` file, and opening its instances behind one request handler.
export { instanceNamed, readInstancesFile, type InstanceDefinition, type InstancesConfig } from './instances-file.js';
export {
  closeInstanceStores,
  openInstances,
  openInstanceStores,
  type InstanceStore,
  type OpenedInstances,
  type StoreSetup,
} from './open-instances.js';
