// Stores to export and compare in the export tests: one set up like a first `serve` and filled with a few documents
// of several resources, and the comparison of two stores resource by resource.
import { Command } from 'commander';
import { expect } from 'vitest';
import { registerExportCommand } from '../../../src/export/index.js';
import { openDirectStoreTarget } from '../../../src/load/index.js';
import { getModelRegistry, type ResourceModel } from '../../../src/model/index.js';
import { openStore, type DocumentStore } from '../../../src/store/index.js';
import { comparableItems } from '../../load/support/export-resources.js';
import { enrollmentDocument, leaDocument, schoolDocument, studentDocument } from '../../support/documents.js';

const CUSTOM_GRADE_LEVEL = {
  namespace: 'uri://example.org/GradeLevelDescriptor',
  codeValue: 'Thirteenth grade',
  shortDescription: 'Thirteenth grade',
};

/** Documents of several resources: ed-orgs, a student, an enrollment (references) and descriptors of both projects. */
export const SOURCE_DOCUMENTS: readonly (readonly [namespace: string, endpoint: string, document: object])[] = [
  ['ed-fi', 'gradeLevelDescriptors', CUSTOM_GRADE_LEVEL],
  [
    'tpdm',
    'accreditationStatusDescriptors',
    { namespace: 'uri://example.org/AccreditationStatusDescriptor', codeValue: 'Pending', shortDescription: 'Pending' },
  ],
  ['ed-fi', 'localEducationAgencies', leaDocument],
  ['ed-fi', 'schools', schoolDocument],
  ['ed-fi', 'students', studentDocument],
  ['ed-fi', 'students', { ...studentDocument, studentUniqueId: '604823', firstName: 'Lee' }],
  [
    'ed-fi',
    'studentSchoolAssociations',
    {
      ...enrollmentDocument,
      studentReference: { studentUniqueId: '604823' },
      entryGradeLevelDescriptor: `${CUSTOM_GRADE_LEVEL.namespace}#${CUSTOM_GRADE_LEVEL.codeValue}`,
    },
  ],
  ['ed-fi', 'studentSchoolAssociations', enrollmentDocument],
];

/** Sets up a new store at `spec` like a first `serve` and posts SOURCE_DOCUMENTS into it. */
export async function fillSourceStore(spec: string): Promise<void> {
  const registry = getModelRegistry();
  const { target } = await openDirectStoreTarget(spec, registry);
  try {
    for (const [namespace, endpoint, document] of SOURCE_DOCUMENTS) {
      const resource = registry.getResource(namespace, endpoint)!;
      const result = await target.post(resource, { ...document }, new AbortController().signal);
      expect(result.status, `${namespace}/${endpoint}: ${result.body}`).toBe(201);
    }
  } finally {
    await target.close();
  }
}

/** Runs `edfi-api export …` and returns what it printed. */
export async function runExport(...args: string[]): Promise<string> {
  let output = '';
  const program = new Command('edfi-api').exitOverride();
  registerExportCommand(program, (line) => (output += `${line}\n`));
  await program.parseAsync(['node', 'edfi-api', 'export', ...args]);
  return output;
}

async function allBodies(store: Pick<DocumentStore, 'list'>, resource: ResourceModel): Promise<unknown[]> {
  const { items } = await store.list(resource, {
    filters: [],
    offset: 0,
    limit: Number.MAX_SAFE_INTEGER,
    totalCount: false,
  });
  return items.map((item) => JSON.parse(item.bodyJson) as unknown);
}

/** Per resource (`namespace/endpoint`, non-empty ones only), the bodies without `link` objects, sorted. */
export async function storeContents(spec: string): Promise<Map<string, string[]>> {
  const store = await openStore(spec);
  try {
    const contents = new Map<string, string[]>();
    for (const resource of getModelRegistry().allResources) {
      const bodies = await allBodies(store, resource);
      if (bodies.length > 0) contents.set(`${resource.namespace}/${resource.endpoint}`, comparableItems(bodies));
    }
    return contents;
  } finally {
    await store.close();
  }
}

export function countsOf(contents: ReadonlyMap<string, readonly string[]>): Record<string, number> {
  return Object.fromEntries([...contents].map(([resource, bodies]) => [resource, bodies.length]));
}
