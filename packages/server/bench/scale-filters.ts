// Every list filter a client can send on the state's big resources (those the SEA client reads by relationships):
// each query field of the model but `id`, given values read from a first page, timed over HTTP. The slowest field's
// p99 is the figure the 100 ms goal is about.
import { getModelRegistry } from '../src/model/index.js';
import { valueAt, type JsonObject } from '../src/composites/composite-reads.js';
import type { JsonPath } from '../src/model/types.js';
import { memberSteps } from '../src/store/relational/sql-dialect.js';

/** The generated state's resources with the most rows, each field's values taken from its first page. */
const SWEPT = [
  'studentSchoolAttendanceEvents',
  'studentSectionAttendanceEvents',
  'studentSectionAssociations',
  'grades',
  'studentSchoolAssociations',
  'students',
];
const REQUESTS_PER_FIELD = 10;

export interface FilterLatency {
  readonly filter: string;
  readonly milliseconds: readonly number[];
}

/** A document's value at a query field's path, when it is a scalar a query string can carry. */
function scalarAt(document: JsonObject, path: JsonPath): string | undefined {
  const value = valueAt(document, memberSteps(path));
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : undefined;
}

/**
 * For each swept resource and each of its query fields that its first page has values of, `REQUESTS_PER_FIELD`
 * first pages filtered on a value of a random document of that page; `read` answers one path's JSON.
 */
export async function sweepFilters(
  read: (path: string) => Promise<unknown>,
  timed: (path: string) => Promise<number>,
): Promise<FilterLatency[]> {
  const registry = getModelRegistry();
  const swept: FilterLatency[] = [];
  for (const endpoint of SWEPT) {
    const resource = registry.getResource('ed-fi', endpoint);
    if (resource === undefined) throw new Error(`No resource ${endpoint}`);
    const path = `/data/v3/ed-fi/${endpoint}`;
    const documents = (await read(`${path}?limit=25`)) as JsonObject[];
    for (const [field, paths] of Object.entries(resource.queryFields)) {
      if (field === 'id') continue;
      const values = documents.flatMap((document) => scalarAt(document, paths[0]!) ?? []);
      if (values.length === 0) continue;
      const milliseconds: number[] = [];
      for (let index = 0; index < REQUESTS_PER_FIELD; index++) {
        const value = values[Math.floor(Math.random() * values.length)]!;
        milliseconds.push(await timed(`${path}?${field}=${encodeURIComponent(value)}&limit=25`));
      }
      swept.push({ filter: `${endpoint}?${field}`, milliseconds });
    }
  }
  return swept;
}
