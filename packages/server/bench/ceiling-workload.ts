// What the store ceilings write and read, for every store: full students and typical student-school associations as
// the API layer hands them over, their rows' values, and how many reference edges each has.
import { getModelRegistry, type ResourceModel } from '../src/model/index.js';
import { tableLayoutOf, type TableLayout } from '../src/store/relational/table-layout.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { DocumentWrite, Store } from '../src/store/store.js';
import { documentWrite } from '../test/store/document-writes.js';
import { ReferenceTargets } from '../test/store/reference-targets.js';

export interface CeilingRow {
  readonly operation: string;
  /** Plain statements on the database driver, no store logic. */
  readonly rawPerSecond: number;
  /** The store in process over the same rows, when measured. */
  readonly storePerSecond?: number;
}

export const registry = getModelRegistry();

function resource(endpoint: string): ResourceModel {
  const model = registry.getResource('ed-fi', endpoint);
  if (!model) throw new Error(`No resource ${endpoint}`);
  return model;
}

export const students = resource('students');
export const associations = resource('studentSchoolAssociations');
export const READS_PER_WRITE = 4;

/** Full students and typical associations (one per student), as the API layer would hand them over. */
export interface Workload {
  readonly studentWrites: DocumentWrite[];
  readonly associationWrites: DocumentWrite[];
}

/**
 * A typical association as the design sizes it: 5 document references (school, student, calendar, school year,
 * graduation plan) and 6 descriptors, cut from the full generated document.
 */
const TYPICAL_ASSOCIATION_MEMBERS = [
  'calendarReference',
  'entryDate',
  'entryGradeLevelDescriptor',
  'entryTypeDescriptor',
  'exitWithdrawDate',
  'exitWithdrawTypeDescriptor',
  'graduationPlanReference',
  'primarySchool',
  'residencyStatusDescriptor',
  'schoolReference',
  'schoolYearTypeReference',
  'studentReference',
  'enrollmentTypeDescriptor',
];

/** The writes, with every document and descriptor they reference stored in `store`. */
export async function prepareWorkload(store: Store, count: number): Promise<Workload> {
  const targets = new ReferenceTargets(store);
  await targets.seedDefaultDescriptors();
  const student = await targets.document(students, 'full');
  const full = await targets.document(associations, 'full');
  const association = Object.fromEntries(
    Object.entries(full).filter(([name]) => TYPICAL_ASSOCIATION_MEMBERS.includes(name)),
  );
  const studentIds = Array.from({ length: count }, (_, index) => `bench-${index}`);
  return {
    studentWrites: studentIds.map((id) => documentWrite(students, { ...student, studentUniqueId: id })),
    associationWrites: studentIds.map((id) =>
      documentWrite(associations, { ...association, studentReference: { studentUniqueId: id } }),
    ),
  };
}

/** The writes alone, for a raw ceiling that needs no store: their targets are resolved in a throwaway one. */
export async function prepareStandaloneWorkload(count: number): Promise<Workload> {
  const scratch = new SqliteStore(':memory:');
  await scratch.migrate();
  await scratch.open();
  try {
    return await prepareWorkload(scratch, count);
  } finally {
    await scratch.close();
  }
}

/** Distinct referenced documents and descriptors of a write: its edge counts. */
export function edgeCounts(write: DocumentWrite): { documents: number; descriptors: number } {
  const documents = new Set(
    write.references.map((reference) => `${reference.reference.target}:${reference.targetIdentity.key}`),
  );
  const descriptors = new Set(
    write.descriptors.map((descriptor) => `${descriptor.use.descriptor}:${descriptor.uri.toLowerCase()}`),
  );
  return { documents: documents.size, descriptors: descriptors.size };
}

/** The three ceiling operations, named with the edges each write makes. */
export function ceilingOperations(workload: Workload): readonly string[] {
  const describe = (write: DocumentWrite): string => {
    const counts = edgeCounts(write);
    return `${counts.documents} document + ${counts.descriptors} descriptor edges`;
  };
  return [
    `upsert full student (create, ${describe(workload.studentWrites[0]!)})`,
    `upsert typical studentSchoolAssociation (create, ${describe(workload.associationWrites[0]!)})`,
    'get student by id',
  ];
}

/**
 * The resource row's own values in column order: identity key, then the layout's typed columns (a store's own layout
 * when it has more columns than the default one, as PostgreSQL's query-field columns).
 */
export function rowValuesOf(write: DocumentWrite, layout: TableLayout = tableLayoutOf(write.resource)): unknown[] {
  return [write.identity.key, ...layout.columns.map((column) => column.read(write.body))];
}

/** Which student a read takes: spread over the students written so far. */
export function readTarget(index: number, written: number): number {
  return (index * 7919) % written;
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, offset) => from + offset);
}
