// The Store conformance suite: every implementation (SQLite now, PostgreSQL later) runs it through the Store API only.
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getModelRegistry, type ResourceModel } from '../../src/model/index.js';
import type { ListQuery, Store, StoreOptions } from '../../src/store/store.js';
import { descriptorExists } from '../support/descriptor-values.js';
import { describeChangeTrackingConformance } from './change-conformance.js';
import { documentWrite } from './document-writes.js';
import { ReferenceTargets } from './reference-targets.js';
import {
  localEducationAgency,
  resources,
  school,
  schoolYearType,
  seedSampleDescriptors,
  student,
  studentEducationOrganizationAssociation,
  studentSchoolAssociation,
  uri,
} from './sample-documents.js';
import { everything, storeError } from './store-assertions.js';

export interface StoreUnderTest {
  readonly store: Store;
  /** Closes the store and opens a new one over the same data; absent when the store does not persist. */
  readonly reopen?: () => Promise<Store>;
  /** Closes whatever is open and removes the data. */
  readonly dispose: () => Promise<void>;
}

/** Creates a new, empty, opened store for one test. */
export type StoreFactory = (options?: StoreOptions) => Promise<StoreUnderTest>;

const ID = /^[0-9a-f]{32}$/;
const ETAG = /^\d+$/;
const LAST_MODIFIED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{0,6}[1-9])?Z$/;

export function describeStoreConformance(name: string, factory: StoreFactory): void {
  describe(`Store conformance: ${name}`, () => {
    let subject: StoreUnderTest;
    let store: Store;

    beforeEach(async () => {
      subject = await factory();
      store = subject.store;
    });
    afterEach(async () => {
      await subject.dispose();
    });

    const upsert = (resource: ResourceModel, body: Record<string, unknown>, ifMatch?: string) =>
      store.upsert(documentWrite(resource, body), ifMatch === undefined ? undefined : { ifMatch });
    const count = async (resource: ResourceModel) => (await store.list(resource, everything({ limit: 0 }))).totalCount;
    const bodyOf = async (resource: ResourceModel, id: string) =>
      JSON.parse((await store.get(resource, id))!.bodyJson) as Record<string, unknown>;

    /** A school, a student and their association, with the descriptors they use. */
    async function enrolment() {
      await seedSampleDescriptors(store);
      const schoolOutcome = await upsert(resources.schools, school(255901001));
      const studentOutcome = await upsert(resources.students, student('604822'));
      const association = await upsert(
        resources.studentSchoolAssociations,
        studentSchoolAssociation('604822', 255901001),
      );
      return { school: schoolOutcome, student: studentOutcome, association };
    }

    describe('upsert by natural key', () => {
      it('creates a document with a new id, a digit etag and a 7-digit UTC timestamp', async () => {
        await seedSampleDescriptors(store);
        const outcome = await upsert(resources.schools, school(1));
        expect(outcome.status).toBe('created');
        expect(outcome.id).toMatch(ID);
        expect(outcome.etag).toMatch(ETAG);
        expect(outcome.lastModifiedDate).toMatch(LAST_MODIFIED);
        const stored = await store.get(resources.schools, outcome.id);
        expect(stored).toMatchObject({
          id: outcome.id,
          etag: outcome.etag,
          lastModifiedDate: outcome.lastModifiedDate,
        });
        expect(JSON.parse(stored!.bodyJson)).toEqual(school(1));
      });

      it('answers an identical upsert with unchanged and keeps etag, change version and timestamp', async () => {
        await seedSampleDescriptors(store);
        const created = await upsert(resources.schools, school(1));
        const before = await store.get(resources.schools, created.id);
        const again = await upsert(resources.schools, school(1));
        expect(again).toEqual({ ...created, status: 'unchanged' });
        expect(await store.get(resources.schools, created.id)).toEqual(before);
      });

      it('updates a changed document in place with a new etag and a higher change version', async () => {
        await seedSampleDescriptors(store);
        const created = await upsert(resources.schools, school(1, 'Old name'));
        const before = await store.get(resources.schools, created.id);
        const updated = await upsert(resources.schools, school(1, 'New name'));
        expect(updated.status).toBe('updated');
        expect(updated.id).toBe(created.id);
        expect(updated.etag).not.toBe(created.etag);
        const after = await store.get(resources.schools, created.id);
        expect(after!.changeVersion).toBeGreaterThan(before!.changeVersion);
        expect(after!.lastModifiedDate >= before!.lastModifiedDate).toBe(true);
        expect(JSON.parse(after!.bodyJson)).toEqual(school(1, 'New name'));
        expect(await count(resources.schools)).toBe(1);
      });

      it('draws change versions from one increasing counter across resources', async () => {
        await seedSampleDescriptors(store);
        const versions: number[] = [];
        for (const [resource, body] of [
          [resources.schools, school(1)],
          [resources.students, student('s1')],
          [resources.schools, school(1, 'Renamed')],
          [resources.schools, school(2)],
        ] as const) {
          const outcome = await upsert(resource, body);
          versions.push((await store.get(resource, outcome.id))!.changeVersion);
        }
        expect([...versions].sort((a, b) => a - b)).toEqual(versions);
        expect(new Set(versions).size).toBe(versions.length);
      });

      it('ignores If-Match on a create and enforces it on an update', async () => {
        await seedSampleDescriptors(store);
        const created = await upsert(resources.schools, school(1), 'whatever');
        expect(created.status).toBe('created');
        await storeError(upsert(resources.schools, school(1, 'Changed'), '12345'), 'optimistic-lock-failed');
        expect(await bodyOf(resources.schools, created.id)).toEqual(school(1));
        const updated = await upsert(resources.schools, school(1, 'Changed'), `"${created.etag}"`);
        expect(updated.status).toBe('updated');
      });

      it('leaves the caller body untouched', async () => {
        await enrolment();
        const body = studentSchoolAssociation('604822', 255901001, { primarySchool: true });
        const copy = structuredClone(body);
        await upsert(resources.studentSchoolAssociations, body);
        expect(body).toEqual(copy);
      });
    });

    describe('references and links', () => {
      it('stores link objects with the target resource and id on each reference', async () => {
        const { school: schoolOutcome, student: studentOutcome, association } = await enrolment();
        expect(await bodyOf(resources.studentSchoolAssociations, association.id)).toEqual({
          entryDate: '2021-08-23',
          entryGradeLevelDescriptor: uri.ninthGrade,
          schoolReference: {
            schoolId: 255901001,
            link: { rel: 'School', href: `/ed-fi/schools/${schoolOutcome.id}` },
          },
          studentReference: {
            studentUniqueId: '604822',
            link: { rel: 'Student', href: `/ed-fi/students/${studentOutcome.id}` },
          },
        });
      });

      it('resolves an abstract education organization reference to any subclass, linking the concrete one', async () => {
        await seedSampleDescriptors(store);
        const schoolOutcome = await upsert(resources.schools, school(10));
        const leaOutcome = await upsert(resources.localEducationAgencies, localEducationAgency(20));
        await upsert(resources.students, student('s1'));
        const atSchool = await upsert(
          resources.studentEducationOrganizationAssociations,
          studentEducationOrganizationAssociation('s1', 10),
        );
        const atLea = await upsert(
          resources.studentEducationOrganizationAssociations,
          studentEducationOrganizationAssociation('s1', 20),
        );
        const seoa = resources.studentEducationOrganizationAssociations;
        expect((await bodyOf(seoa, atSchool.id)).educationOrganizationReference).toEqual({
          educationOrganizationId: 10,
          link: { rel: 'School', href: `/ed-fi/schools/${schoolOutcome.id}` },
        });
        expect((await bodyOf(seoa, atLea.id)).educationOrganizationReference).toEqual({
          educationOrganizationId: 20,
          link: { rel: 'LocalEducationAgency', href: `/ed-fi/localEducationAgencies/${leaOutcome.id}` },
        });
      });

      it('links school-year references and references inside collections', async () => {
        await seedSampleDescriptors(store);
        const years = [
          await upsert(resources.schoolYearTypes, schoolYearType(2022)),
          await upsert(resources.schoolYearTypes, schoolYearType(2023)),
        ];
        await upsert(resources.schools, school(10));
        await upsert(resources.students, student('s1'));
        const outcome = await upsert(
          resources.studentEducationOrganizationAssociations,
          studentEducationOrganizationAssociation('s1', 10, [2022, 2023]),
        );
        const body = await bodyOf(resources.studentEducationOrganizationAssociations, outcome.id);
        expect(body.cohortYears).toEqual(
          years.map((year, index) => ({
            cohortYearTypeDescriptor: uri.cohortYearType,
            schoolYearTypeReference: {
              schoolYear: 2022 + index,
              link: { rel: 'SchoolYearType', href: `/ed-fi/schoolYearTypes/${year.id}` },
            },
          })),
        );
      });

      it('rejects an unresolved reference naming the target, and writes nothing', async () => {
        await seedSampleDescriptors(store);
        await upsert(resources.schools, school(255901001));
        const error = await storeError(
          upsert(resources.studentSchoolAssociations, studentSchoolAssociation('missing', 255901001)),
          'unresolved-reference',
        );
        expect(error.message).toBe("The referenced 'Student' item does not exist.");
        expect(error.resourceNames).toEqual(['Student']);
        expect(await count(resources.studentSchoolAssociations)).toBe(0);
        // No change version was consumed either: the next write follows the school directly.
        const next = await upsert(resources.students, student('s1'));
        const schoolVersion = (await store.list(resources.schools, everything())).items[0]!.changeVersion;
        expect((await store.get(resources.students, next.id))!.changeVersion).toBe(schoolVersion + 1);
      });

      it('reports the first unresolved reference, abstract targets by their abstract name', async () => {
        await seedSampleDescriptors(store);
        const both = await storeError(
          upsert(resources.studentSchoolAssociations, studentSchoolAssociation('missing', 1)),
          'unresolved-reference',
        );
        expect(both.resourceNames).toEqual(['School']);
        await upsert(resources.students, student('s1'));
        const abstract = await storeError(
          upsert(resources.studentEducationOrganizationAssociations, studentEducationOrganizationAssociation('s1', 99)),
          'unresolved-reference',
        );
        expect(abstract.message).toBe("The referenced 'EducationOrganization' item does not exist.");
      });

      it('rejects a descriptor that does not exist as that descriptor type', async () => {
        await seedSampleDescriptors(store);
        await upsert(resources.schools, school(1));
        await upsert(resources.students, student('s1'));
        const wrongType = studentSchoolAssociation('s1', 1, { entryGradeLevelDescriptor: uri.sex });
        const error = await storeError(upsert(resources.studentSchoolAssociations, wrongType), 'unresolved-reference');
        expect(error.resourceNames).toEqual(['GradeLevelDescriptor']);
        expect(await count(resources.studentSchoolAssociations)).toBe(0);
      });

      it('matches descriptor URIs case-insensitively and keeps the sent casing in the body', async () => {
        await seedSampleDescriptors(store);
        await upsert(resources.schools, school(1));
        await upsert(resources.students, student('s1'));
        const shouted = uri.ninthGrade.toUpperCase();
        const outcome = await upsert(
          resources.studentSchoolAssociations,
          studentSchoolAssociation('s1', 1, { entryGradeLevelDescriptor: shouted }),
        );
        expect((await bodyOf(resources.studentSchoolAssociations, outcome.id)).entryGradeLevelDescriptor).toBe(shouted);
      });
    });

    describe('identity', () => {
      it('refuses an education organization id already taken by another subclass', async () => {
        await seedSampleDescriptors(store);
        await upsert(resources.localEducationAgencies, localEducationAgency(100));
        const error = await storeError(upsert(resources.schools, school(100)), 'non-unique-identity');
        expect(error.resourceNames).toEqual(['EducationOrganization']);
        expect(await count(resources.schools)).toBe(0);
      });

      it('refuses an identity change on update by id where the resource does not allow it', async () => {
        const { student: studentOutcome } = await enrolment();
        const changed = student('604823');
        const error = await storeError(
          store.update(studentOutcome.id, documentWrite(resources.students, changed)),
          'key-change-not-supported',
        );
        expect(error.message).toBe(
          'Identifying values for the Student data cannot be changed. Delete and recreate the item instead.',
        );
        expect((await bodyOf(resources.students, studentOutcome.id)).studentUniqueId).toBe('604822');
      });

      it('treats descriptor identities case-insensitively', async () => {
        await seedSampleDescriptors(store);
        const [namespace, codeValue] = uri.ninthGrade.split('#') as [string, string];
        const outcome = await upsert(resources.gradeLevelDescriptors, {
          codeValue: codeValue.toUpperCase(),
          namespace,
          shortDescription: 'Ninth',
        });
        expect(outcome.status).toBe('updated');
        expect(await count(resources.gradeLevelDescriptors)).toBe(2);
        const listed = await store.list(
          resources.gradeLevelDescriptors,
          everything({ filters: [{ field: 'codeValue', value: codeValue.toUpperCase() }] }),
        );
        expect(listed.items.map((item) => item.id)).toEqual([outcome.id]);
      });
    });

    describe('update by id', () => {
      it('replaces the body, or reports unchanged content with the same etag', async () => {
        const { association } = await enrolment();
        const body = studentSchoolAssociation('604822', 255901001, { primarySchool: true });
        const updated = await store.update(association.id, documentWrite(resources.studentSchoolAssociations, body));
        expect(updated.id).toBe(association.id);
        expect(updated.etag).not.toBe(association.etag);
        expect((await bodyOf(resources.studentSchoolAssociations, association.id)).primarySchool).toBe(true);
        const again = await store.update(association.id, documentWrite(resources.studentSchoolAssociations, body));
        expect(again).toEqual(updated);
      });

      it('reports not-found and If-Match mismatches', async () => {
        const { association } = await enrolment();
        const write = documentWrite(resources.studentSchoolAssociations, studentSchoolAssociation('604822', 255901001));
        await storeError(store.update('0'.repeat(32), write), 'not-found');
        await storeError(
          store.update(association.id, write, { ifMatch: `${association.etag}0` }),
          'optimistic-lock-failed',
        );
        // An id of another resource is not found either.
        const otherResource = documentWrite(resources.schools, school(255901001));
        await storeError(store.update(association.id, otherResource), 'not-found');
      });

      it('reports not-found, If-Match and key changes before unresolved references', async () => {
        const { association } = await enrolment();
        const dangling = (overrides = {}) =>
          documentWrite(resources.studentSchoolAssociations, {
            ...studentSchoolAssociation('604822', 255901001, overrides),
            schoolYearTypeReference: { schoolYear: 1999 },
          });
        await storeError(store.update('0'.repeat(32), dangling()), 'not-found');
        await storeError(store.update(association.id, dangling(), { ifMatch: '0' }), 'optimistic-lock-failed');
        await storeError(store.upsert(dangling(), { ifMatch: '0' }), 'optimistic-lock-failed');
        const { id: studentId } = (await store.list(resources.students, everything())).items[0]!;
        await storeError(
          store.update(
            studentId,
            documentWrite(resources.students, {
              ...student('604823'),
              personReference: {
                personId: 'nobody',
                sourceSystemDescriptor: 'uri://ed-fi.org/SourceSystemDescriptor#X',
              },
            }),
          ),
          'key-change-not-supported',
        );
        await storeError(store.update(association.id, dangling()), 'unresolved-reference');
      });

      it('replaces the edge set: a descriptor no longer used can be deleted, the new one cannot', async () => {
        const { association } = await enrolment();
        await upsert(resources.schools, {
          ...school(255901001),
          gradeLevels: [{ gradeLevelDescriptor: uri.tenthGrade }],
        });
        const tenth = studentSchoolAssociation('604822', 255901001, { entryGradeLevelDescriptor: uri.tenthGrade });
        await store.update(association.id, documentWrite(resources.studentSchoolAssociations, tenth));
        const descriptors = (await store.list(resources.gradeLevelDescriptors, everything())).items;
        const idOf = (codeValue: string) =>
          descriptors.find((item) => (JSON.parse(item.bodyJson) as { codeValue: string }).codeValue === codeValue)!.id;
        await storeError(store.delete(resources.gradeLevelDescriptors, idOf('Tenth grade')), 'dependent-item-exists');
        await store.delete(resources.gradeLevelDescriptors, idOf('Ninth grade'));
        expect(await descriptorExists(store, 'ed-fi', 'GradeLevelDescriptor', uri.ninthGrade)).toBe(false);
      });
    });

    describe('delete', () => {
      it('deletes, then reports not-found', async () => {
        await seedSampleDescriptors(store);
        const outcome = await upsert(resources.students, student('s1'));
        await store.delete(resources.students, outcome.id);
        expect(await store.get(resources.students, outcome.id)).toBeUndefined();
        await storeError(store.delete(resources.students, outcome.id), 'not-found');
      });

      it('refuses to delete a referenced document, naming the referencing resources sorted', async () => {
        const { student: studentOutcome } = await enrolment();
        const only = await storeError(store.delete(resources.students, studentOutcome.id), 'dependent-item-exists');
        expect(only.resourceNames).toEqual(['StudentSchoolAssociation']);
        await upsert(
          resources.studentEducationOrganizationAssociations,
          studentEducationOrganizationAssociation('604822', 255901001),
        );
        const both = await storeError(store.delete(resources.students, studentOutcome.id), 'dependent-item-exists');
        expect(both.resourceNames).toEqual(['StudentEducationOrganizationAssociation', 'StudentSchoolAssociation']);
        expect(await store.get(resources.students, studentOutcome.id)).toBeDefined();
      });

      it('refuses to delete a descriptor in use, and forgets a deleted one', async () => {
        await enrolment();
        const ninth = (
          await store.list(
            resources.gradeLevelDescriptors,
            everything({
              filters: [{ field: 'codeValue', value: 'Ninth grade' }],
            }),
          )
        ).items[0]!;
        const error = await storeError(
          store.delete(resources.gradeLevelDescriptors, ninth.id),
          'dependent-item-exists',
        );
        expect(error.resourceNames).toEqual(['School', 'StudentSchoolAssociation']);
        const sex = (await store.list(resources.sexDescriptors, everything())).items[0]!;
        await store.delete(resources.sexDescriptors, sex.id);
        expect(await descriptorExists(store, 'ed-fi', 'SexDescriptor', uri.sex)).toBe(false);
      });

      it('frees the targets once the referencing document is gone', async () => {
        const { school: schoolOutcome, student: studentOutcome, association } = await enrolment();
        await store.delete(resources.studentSchoolAssociations, association.id);
        await store.delete(resources.students, studentOutcome.id);
        await store.delete(resources.schools, schoolOutcome.id);
        expect(await count(resources.schools)).toBe(0);
      });

      it('checks If-Match and the resource of the id', async () => {
        await seedSampleDescriptors(store);
        const outcome = await upsert(resources.students, student('s1'));
        await storeError(store.delete(resources.students, outcome.id, { ifMatch: '1' }), 'optimistic-lock-failed');
        await storeError(store.delete(resources.schools, outcome.id), 'not-found');
        await store.delete(resources.students, outcome.id, { ifMatch: outcome.etag });
        expect(await count(resources.students)).toBe(0);
      });
    });

    describe('concurrent writes', () => {
      it('applies writes issued together in order, each succeeding or failing on its own', async () => {
        await seedSampleDescriptors(store);
        const settled = await Promise.allSettled([
          upsert(resources.schools, school(1)),
          upsert(resources.studentSchoolAssociations, studentSchoolAssociation('missing', 1)),
          upsert(resources.students, student('s1')),
          store.delete(resources.students, '0'.repeat(32)),
          upsert(resources.schools, school(2)),
        ]);
        expect(settled.map((result) => result.status)).toEqual([
          'fulfilled',
          'rejected',
          'fulfilled',
          'rejected',
          'fulfilled',
        ]);
        const reasons = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
        expect(reasons.map((reason) => (reason as { kind?: string }).kind)).toEqual([
          'unresolved-reference',
          'not-found',
        ]);
        expect(await count(resources.studentSchoolAssociations)).toBe(0);
        const created = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
        const stored = await Promise.all(
          [created[0]!, created[2]!].map(async (outcome) => (await store.get(resources.schools, outcome.id))!),
        );
        expect(stored[0]!.changeVersion).toBeLessThan(stored[1]!.changeVersion);
        expect(await count(resources.students)).toBe(1);
      });

      it('makes a write visible to every read once it is acknowledged, and keeps one issued just before closing', async () => {
        await seedSampleDescriptors(store);
        const first = await upsert(resources.schools, school(1));
        expect(await store.get(resources.schools, first.id)).toBeDefined();
        if (!subject.reopen) return;
        const pending = upsert(resources.schools, school(2));
        store = await subject.reopen();
        const outcome = await pending;
        expect(await store.get(resources.schools, outcome.id)).toMatchObject({ id: outcome.id, etag: outcome.etag });
      });
    });

    describe('list', () => {
      async function students(total: number) {
        await seedSampleDescriptors(store);
        const ids: string[] = [];
        for (let index = 0; index < total; index++)
          ids.push((await upsert(resources.students, student(`s${index}`, index % 2 ? 'Odd' : 'Even'))).id);
        return ids;
      }

      it('pages in insertion order with a total count', async () => {
        const ids = await students(7);
        const page = await store.list(resources.students, everything({ offset: 2, limit: 3 }));
        expect(page.items.map((item) => item.id)).toEqual(ids.slice(2, 5));
        expect(page.totalCount).toBe(7);
        const empty = await store.list(resources.students, everything({ limit: 0 }));
        expect(empty).toEqual({ items: [], totalCount: 7 });
        expect(await store.list(resources.students, everything({ totalCount: false, limit: 1 }))).not.toHaveProperty(
          'totalCount',
        );
      });

      it('pages like slicing the insertion order, for any offset and limit', async () => {
        const ids = await students(12);
        await fc.assert(
          fc.asyncProperty(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 15 }), async (offset, limit) => {
            const page = await store.list(resources.students, everything({ offset, limit }));
            expect(page.items.map((item) => item.id)).toEqual(ids.slice(offset, offset + limit));
            expect(page.totalCount).toBe(12);
          }),
          { numRuns: 40 },
        );
      });

      it('filters by scalar, id, and AND-ed combinations', async () => {
        const ids = await students(5);
        const odd = await store.list(
          resources.students,
          everything({ filters: [{ field: 'firstName', value: 'Odd' }] }),
        );
        expect(odd.items.map((item) => item.id)).toEqual([ids[1], ids[3]]);
        expect(odd.totalCount).toBe(2);
        const byId = await store.list(resources.students, everything({ filters: [{ field: 'id', value: ids[2]! }] }));
        expect(byId.items.map((item) => item.id)).toEqual([ids[2]]);
        expect(byId.totalCount).toBe(1);
        const none = await store.list(
          resources.students,
          everything({
            filters: [
              { field: 'firstName', value: 'Odd' },
              { field: 'studentUniqueId', value: 's2' },
            ],
          }),
        );
        expect(none).toEqual({ items: [], totalCount: 0 });
      });

      it('keeps only the listed documents, with filters, paging and count, and nothing for an empty list', async () => {
        const ids = await students(6);
        const chosen = [ids[4]!, ids[1]!, ids[3]!, 'f'.repeat(32)];
        const listed = await store.list(resources.students, everything({ documentIds: chosen }));
        expect(listed.items.map((item) => item.id)).toEqual([ids[1], ids[3], ids[4]]);
        expect(listed.totalCount).toBe(3);
        const odd = await store.list(
          resources.students,
          everything({ documentIds: chosen, filters: [{ field: 'firstName', value: 'Odd' }], offset: 1, limit: 1 }),
        );
        expect(odd).toEqual({ items: [expect.objectContaining({ id: ids[3] })], totalCount: 2 });
        expect(await store.list(resources.students, everything({ documentIds: [] }))).toEqual({
          items: [],
          totalCount: 0,
        });
      });

      it('filters unified keys, booleans and descriptors (case-insensitively)', async () => {
        await seedSampleDescriptors(store);
        await upsert(resources.schoolYearTypes, schoolYearType(2022));
        for (const schoolId of [1, 2]) await upsert(resources.schools, school(schoolId));
        for (const id of ['a', 'b', 'c']) await upsert(resources.students, student(id));
        const first = await upsert(
          resources.studentSchoolAssociations,
          studentSchoolAssociation('a', 1, { primarySchool: true, schoolYear: 2022 }),
        );
        const second = await upsert(
          resources.studentSchoolAssociations,
          studentSchoolAssociation('b', 1, { entryGradeLevelDescriptor: uri.tenthGrade }),
        );
        await upsert(resources.studentSchoolAssociations, studentSchoolAssociation('c', 2));
        const ids = async (filters: ListQuery['filters']) =>
          (await store.list(resources.studentSchoolAssociations, everything({ filters }))).items.map((item) => item.id);
        expect(await ids([{ field: 'schoolId', value: 1 }])).toEqual([first.id, second.id]);
        expect(await ids([{ field: 'schoolYear', value: 2022 }])).toEqual([first.id]);
        expect(await ids([{ field: 'primarySchool', value: true }])).toEqual([first.id]);
        expect(await ids([{ field: 'entryGradeLevelDescriptor', value: uri.tenthGrade.toUpperCase() }])).toEqual([
          second.id,
        ]);
        expect(
          await ids([{ field: 'entryGradeLevelDescriptor', value: 'uri://ed-fi.org/GradeLevelDescriptor#None' }]),
        ).toEqual([]);
        expect(await ids([{ field: 'SCHOOLID', value: 2 }])).toHaveLength(1);
      });

      it('lists one descriptor resource at a time and filters its columns', async () => {
        await seedSampleDescriptors(store);
        const grades = await store.list(resources.gradeLevelDescriptors, everything());
        expect(grades.totalCount).toBe(2);
        const tenth = await store.list(
          resources.gradeLevelDescriptors,
          everything({
            filters: [{ field: 'codeValue', value: 'Tenth grade' }],
          }),
        );
        expect(tenth.items.map((item) => JSON.parse(item.bodyJson))).toEqual([
          {
            codeValue: 'Tenth grade',
            namespace: 'uri://ed-fi.org/GradeLevelDescriptor',
            shortDescription: 'Tenth grade',
          },
        ]);
      });

      it('returns bodies with links, as get does', async () => {
        const { association } = await enrolment();
        const listed = await store.list(resources.studentSchoolAssociations, everything());
        expect(listed.items).toEqual([await store.get(resources.studentSchoolAssociations, association.id)]);
      });
    });

    describe('descriptors', () => {
      it('answers existence case-insensitively, per descriptor type', async () => {
        await seedSampleDescriptors(store);
        expect(await descriptorExists(store, 'ed-fi', 'GradeLevelDescriptor', uri.ninthGrade.toLowerCase())).toBe(true);
        expect(await descriptorExists(store, 'ed-fi', 'SexDescriptor', uri.ninthGrade)).toBe(false);
        expect(await descriptorExists(store, 'ed-fi', 'GradeLevelDescriptor', `${uri.ninthGrade}x`)).toBe(false);
      });

      it('seeds only values not stored yet, as ordinary documents', async () => {
        const values = [
          {
            namespace: 'uri://ed-fi.org/GradeLevelDescriptor',
            codeValue: 'Ninth grade',
            shortDescription: 'Ninth grade',
          },
          {
            namespace: 'uri://ed-fi.org/GradeLevelDescriptor',
            codeValue: 'Tenth grade',
            shortDescription: 'Tenth grade',
            description: 'Tenth',
            effectiveBeginDate: '2020-01-01',
          },
        ];
        const posted = await upsert(resources.gradeLevelDescriptors, values[0]!);
        expect(await store.seedDescriptors(resources.gradeLevelDescriptors, values)).toBe(1);
        expect(await store.seedDescriptors(resources.gradeLevelDescriptors, values)).toBe(0);
        const listed = await store.list(resources.gradeLevelDescriptors, everything());
        expect(listed.items[0]!.id).toBe(posted.id);
        expect(JSON.parse(listed.items[1]!.bodyJson)).toEqual({
          codeValue: 'Tenth grade',
          description: 'Tenth',
          effectiveBeginDate: '2020-01-01',
          namespace: 'uri://ed-fi.org/GradeLevelDescriptor',
          shortDescription: 'Tenth grade',
        });
        expect(await upsert(resources.gradeLevelDescriptors, JSON.parse(listed.items[1]!.bodyJson))).toMatchObject({
          status: 'unchanged',
        });
      });

      it('knows descriptors created through upsert', async () => {
        await upsert(resources.sexDescriptors, {
          codeValue: 'X',
          namespace: 'uri://example.org/SexDescriptor',
          shortDescription: 'X',
        });
        expect(await descriptorExists(store, 'ed-fi', 'SexDescriptor', 'uri://example.org/SexDescriptor#x')).toBe(true);
      });
    });

    describe('clients and tokens', () => {
      const client = {
        key: 'key1',
        name: 'Client 1',
        secretHash: 'salt$hash',
        active: true,
        createdAt: '2024-01-01T00:00:00Z',
      };

      it('creates, finds and lists clients', async () => {
        await store.createClient(client);
        await store.createClient({ ...client, key: 'key0', active: false });
        expect(await store.findClient('key1')).toEqual(client);
        expect(await store.findClient('nope')).toBeUndefined();
        expect((await store.listClients()).map((each) => [each.key, each.active])).toEqual([
          ['key0', false],
          ['key1', true],
        ]);
      });

      it('finds access tokens until they expire', async () => {
        await store.createClient(client);
        const expiresAt = Date.now() + 60_000;
        await store.saveAccessToken({ tokenHash: 'h1', clientKey: 'key1', expiresAt });
        expect(await store.findAccessToken('h1', expiresAt - 1)).toEqual({
          tokenHash: 'h1',
          clientKey: 'key1',
          expiresAt,
        });
        expect(await store.findAccessToken('h1', expiresAt)).toBeUndefined();
        expect(await store.findAccessToken('h2', 0)).toBeUndefined();
      });

      it('is empty until it holds a document or a client', async () => {
        expect(await store.isEmpty()).toBe(true);
        await store.createClient(client);
        expect(await store.isEmpty()).toBe(false);
      });
    });

    it('stores, reads back and deletes a full document of every resource in the model', async () => {
      const targets = new ReferenceTargets(store);
      await targets.seedDefaultDescriptors();
      for (const [index, resource] of getModelRegistry().resources.entries()) {
        // Subclasses of one abstract resource would generate the same superclass identity from the same seed.
        const seed = resource.superclass ? index + 1 : 1;
        const { body, id, status } = await targets.create(resource, 'full', seed);
        const stored = JSON.parse((await store.get(resource, id))!.bodyJson) as Record<string, unknown>;
        expect(withoutLinks(stored), `${resource.namespace}/${resource.endpoint}`).toEqual(body);
        if (status === 'created') await store.delete(resource, id);
      }
    });

    it('keeps documents, descriptors, clients and the change-version counter across reopening', async () => {
      if (!subject.reopen) return;
      const { association } = await enrolment();
      await store.createClient({ key: 'k', name: 'n', secretHash: 'h', active: true, createdAt: 'now' });
      const before = await store.get(resources.studentSchoolAssociations, association.id);
      store = await subject.reopen();
      expect(await store.get(resources.studentSchoolAssociations, association.id)).toEqual(before);
      expect(await descriptorExists(store, 'ed-fi', 'GradeLevelDescriptor', uri.ninthGrade)).toBe(true);
      expect(await store.findClient('k')).toBeDefined();
      const next = await upsert(resources.students, student('after-reopen'));
      expect((await store.get(resources.students, next.id))!.changeVersion).toBeGreaterThan(before!.changeVersion);
    });

    describeChangeTrackingConformance(() => store, factory);
  });
}

function withoutLinks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutLinks);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'link')
      .map(([key, member]) => [key, withoutLinks(member)]),
  );
}
