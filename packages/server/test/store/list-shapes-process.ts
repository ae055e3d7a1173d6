// A child process asking one store for many lists, each with a different combination of filter names, and watching
// its own resident memory: the per-shape statement caches must stay bounded however many shapes clients invent.
// Usage: node --import tsx list-shapes-process.ts <store spec> <shapes> <bound in MiB>. Prints one JSON line
// `{ shapes, warmRssMiB, finalRssMiB, peakGrowthMiB }` and stops early (exit 1) once growth passes the bound.
import { getModelRegistry, parseJsonPath, type PropertyShape, type ResourceModel } from '../../src/model/index.js';
import { openStore } from '../../src/store/index.js';

const [spec, shapesText, boundText] = process.argv.slice(2);
if (!spec || !shapesText || !boundText) throw new Error('Usage: list-shapes-process.ts <spec> <shapes> <bound MiB>');
const shapes = Number(shapesText);
const boundMiB = Number(boundText);
const WARM_UP_SHAPES = 2_000;
const CHECK_EVERY = 1_000;

/** Query fields of plain text, which take any value on either store. */
function textFieldsOf(resource: ResourceModel): string[] {
  return Object.entries(resource.queryFields)
    .filter(([, [path]]) => {
      let shape: PropertyShape | undefined = resource.shape;
      for (const { name } of parseJsonPath(path ?? '$.id')) shape = shape?.properties?.[name];
      return shape?.type === 'string' && shape.format === undefined;
    })
    .map(([name]) => name);
}

const registry = getModelRegistry();
/** Resources with enough text query fields that their subsets give every shape asked for. */
const candidates = registry.resources
  .map((resource) => ({ resource, fields: textFieldsOf(resource) }))
  .filter(({ fields }) => fields.length >= 10);

/** The `index`-th combination: a resource, and the subset of its fields that the index's bits name. */
function* combinations(): Generator<{ resource: ResourceModel; fields: string[] }> {
  for (let subset = 1; subset < 2 ** 30; subset++) {
    for (const { resource, fields } of candidates) {
      if (subset >= 2 ** Math.min(fields.length, 30)) continue;
      yield { resource, fields: fields.filter((_, bit) => (subset >> bit) & 1) };
    }
  }
}

const rssMiB = () => process.memoryUsage().rss / 2 ** 20;
const store = await openStore(spec, registry);
let warmRssMiB = 0;
let peakGrowthMiB = 0;
let asked = 0;
for (const { resource, fields } of combinations()) {
  if (asked === shapes) break;
  await store.list(resource, {
    filters: fields.map((field) => ({ field, value: 'x' })),
    offset: 0,
    limit: 1,
    totalCount: false,
  });
  asked++;
  if (asked === WARM_UP_SHAPES) {
    global.gc?.();
    warmRssMiB = rssMiB();
  }
  if (asked > WARM_UP_SHAPES && asked % CHECK_EVERY === 0) {
    peakGrowthMiB = Math.max(peakGrowthMiB, rssMiB() - warmRssMiB);
    if (peakGrowthMiB > boundMiB) break;
  }
}
await store.close();
const result = { shapes: asked, warmRssMiB, finalRssMiB: rssMiB(), peakGrowthMiB };
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exitCode = peakGrowthMiB > boundMiB ? 1 : 0;
