// The change-tracking part of the Store conformance suite: change versions, tracked deletions and key changes,
// identity updates with their cascades, doc-id ranges, partitions and snapshots, through the Store API only.
import { describe, expect, it } from 'vitest';
import type { ResourceModel } from '../../src/model/index.js';
import type { ListQuery, Store, TrackedChangeQuery } from '../../src/store/store.js';
import type { StoreFactory } from './conformance.js';
import { documentWrite } from './document-writes.js';
import {
  classPeriod,
  course,
  courseOffering,
  location,
  localEducationAgency,
  resources,
  school,
  schoolYearType,
  section,
  seedSampleDescriptors,
  session,
  student,
  studentSectionAssociation,
  algebraSection,
} from './sample-documents.js';
import { everything, storeError } from './store-assertions.js';

const window = (overrides: Partial<TrackedChangeQuery> = {}): TrackedChangeQuery => ({
  offset: 0,
  limit: 500,
  totalCount: false,
  ...overrides,
});

const SCHOOL_ID = 100;
const algebra = algebraSection(SCHOOL_ID);

/** Registers the change-tracking tests inside a conformance suite whose current store `current()` returns. */
export function describeChangeTrackingConformance(current: () => Store, factory: StoreFactory): void {
  const upsert = (resource: ResourceModel, body: Record<string, unknown>) =>
    current().upsert(documentWrite(resource, body));
  const update = (resource: ResourceModel, id: string, body: Record<string, unknown>) =>
    current().update(id, documentWrite(resource, body));
  const stored = async (resource: ResourceModel, id: string) => (await current().get(resource, id))!;
  const bodyOf = async (resource: ResourceModel, id: string) =>
    JSON.parse((await stored(resource, id)).bodyJson) as Record<string, unknown>;

  /** A school with a session, course offering, class period, location and section, and two students enrolled in it. */
  async function sectionWithStudents(store: Store = current()) {
    const write = (resource: ResourceModel, body: Record<string, unknown>) =>
      store.upsert(documentWrite(resource, body));
    await seedSampleDescriptors(store);
    await write(resources.schoolYearTypes, schoolYearType(2022));
    await write(resources.schools, school(SCHOOL_ID));
    const sessionOutcome = await write(resources.sessions, session(SCHOOL_ID, 'Fall'));
    await write(resources.courses, course('ALG-1', SCHOOL_ID));
    const offering = await write(resources.courseOfferings, courseOffering(algebra));
    const period = await write(resources.classPeriods, classPeriod('P1', SCHOOL_ID));
    const room = await write(resources.locations, location('R101', SCHOOL_ID));
    const sectionOutcome = await write(
      resources.sections,
      section(algebra, { classPeriodNames: ['P1'], classroom: 'R101' }),
    );
    const enrolments = [];
    for (const studentUniqueId of ['s1', 's2']) {
      await write(resources.students, student(studentUniqueId));
      enrolments.push(
        await write(resources.studentSectionAssociations, studentSectionAssociation(studentUniqueId, algebra)),
      );
    }
    return { session: sessionOutcome, offering, period, room, section: sectionOutcome, enrolments };
  }

  describe('change versions', () => {
    it('stamps every write with the next version of one counter, and reports the newest', async () => {
      expect(await current().newestChangeVersion()).toBe(0);
      await seedSampleDescriptors(current());
      const created = await upsert(resources.students, student('s1'));
      const first = await stored(resources.students, created.id);
      expect(await current().newestChangeVersion()).toBe(first.changeVersion);
      await update(resources.students, created.id, student('s1', 'Grace'));
      const second = await stored(resources.students, created.id);
      expect(second.changeVersion).toBe(first.changeVersion + 1);
      expect(second.docId).toBe(first.docId);
      await current().delete(resources.students, created.id);
      // The deletion takes a version of its own.
      expect(await current().newestChangeVersion()).toBe(second.changeVersion + 1);
      const [deletion] = (await current().deletes(resources.students, window())).items;
      expect(deletion?.changeVersion).toBe(second.changeVersion + 1);
    });

    it('lists by inclusive change-version bounds and doc-id ranges, in doc-id order', async () => {
      await seedSampleDescriptors(current());
      const ids = [];
      for (const name of ['a', 'b', 'c', 'd']) ids.push((await upsert(resources.students, student(name))).id);
      await update(resources.students, ids[1]!, student('b', 'Grace'));
      const all = (await current().list(resources.students, everything())).items;
      expect(all.map((item) => item.id)).toEqual(ids);
      const docIds = all.map((item) => item.docId);
      expect([...docIds].sort((a, b) => a - b)).toEqual(docIds);
      const versions = all.map((item) => item.changeVersion);
      const since = (min: number, max?: number) =>
        current()
          .list(resources.students, everything({ changeVersions: { min, max }, totalCount: true }))
          .then(({ items, totalCount }) => ({ ids: items.map((item) => item.id), totalCount }));
      expect(await since(versions[2]!)).toEqual({ ids: [ids[1], ids[2], ids[3]], totalCount: 3 });
      expect(await since(versions[2]!, versions[3]!)).toEqual({ ids: [ids[2], ids[3]], totalCount: 2 });
      const range = await current().list(
        resources.students,
        everything({ docIds: { min: docIds[1]!, max: docIds[2]! } }),
      );
      expect(range.items.map((item) => item.id)).toEqual([ids[1], ids[2]]);
    });
  });

  describe('ordering guarantees (README: store ordering guarantees)', () => {
    it('never reports a newest version while a change at or below it is still invisible', async () => {
      await seedSampleDescriptors(current());
      const store = current();
      /** What a syncing reader saw: the newest version, then everything listed up to it. */
      const samples: { newest: number; seen: Set<string> }[] = [];
      const sample = async () => {
        const newest = await store.newestChangeVersion();
        const { items } = await store.list(resources.students, everything({ changeVersions: { max: newest } }));
        samples.push({ newest, seen: new Set(items.map((item) => item.id)) });
      };
      const writes = Array.from({ length: 60 }, (_, index) => upsert(resources.students, student(`o${index}`)));
      const readers = Array.from({ length: 20 }, () => sample());
      await Promise.all([...writes, ...readers]);
      await sample();
      const final = (await store.list(resources.students, everything())).items;
      expect(final).toHaveLength(60);
      for (const { newest, seen } of samples) {
        const due = final.filter((item) => item.changeVersion <= newest).map((item) => item.id);
        expect(due.filter((id) => !seen.has(id))).toEqual([]);
        expect(seen.size).toBe(due.length);
      }
      expect(samples.at(-1)!.newest).toBe(Math.max(...final.map((item) => item.changeVersion)));
    });

    it('gives every write a version above every version visible when it was acknowledged', async () => {
      await seedSampleDescriptors(current());
      const first = await upsert(resources.students, student('first'));
      const before = await current().newestChangeVersion();
      const [later] = await Promise.all([
        upsert(resources.students, student('later')),
        update(resources.students, first.id, student('first', 'Grace')),
      ]);
      const versions = [(await stored(resources.students, later.id)).changeVersion];
      versions.push((await stored(resources.students, first.id)).changeVersion);
      for (const version of versions) expect(version).toBeGreaterThan(before);
      expect(new Set(versions).size).toBe(2);
    });

    it('never reuses a document id, even after the document is deleted', async () => {
      await seedSampleDescriptors(current());
      const gone = await upsert(resources.students, student('gone'));
      const goneDocId = (await stored(resources.students, gone.id)).docId;
      await current().delete(resources.students, gone.id);
      const written = await Promise.all(['a', 'b', 'c'].map((name) => upsert(resources.students, student(name))));
      const docIds = await Promise.all(written.map(async ({ id }) => (await stored(resources.students, id)).docId));
      expect(new Set([...docIds, goneDocId]).size).toBe(4);
      for (const docId of docIds) expect(docId).toBeGreaterThan(goneDocId);
    });
  });

  describe('deletes', () => {
    it('keep the key at deletion under flattened names and the old securable values', async () => {
      const chain = await sectionWithStudents();
      await current().delete(resources.studentSectionAssociations, chain.enrolments[0]!.id);
      const { items } = await current().deletes(resources.studentSectionAssociations, window());
      expect(items).toEqual([
        {
          id: chain.enrolments[0]!.id,
          changeVersion: await current().newestChangeVersion(),
          keyValues: {
            beginDate: '2021-08-23',
            localCourseCode: 'ALG-1',
            schoolId: SCHOOL_ID,
            schoolYear: 2022,
            sectionIdentifier: 'ALG-1-01',
            sessionName: 'Fall',
            studentUniqueId: 's1',
          },
          securables: {
            educationOrganizationIds: { SchoolId: SCHOOL_ID },
            studentUniqueIds: ['s1'],
            staffUniqueIds: [],
            contactUniqueIds: [],
            namespaces: [],
          },
        },
      ]);
    });

    it('hide a deletion whose natural key exists again, and page with offset, limit and total count', async () => {
      await seedSampleDescriptors(current());
      const ids = [];
      for (const name of ['a', 'b', 'c', 'd']) ids.push((await upsert(resources.students, student(name))).id);
      for (const id of ids) await current().delete(resources.students, id);
      await upsert(resources.students, student('b'));
      const all = await current().deletes(resources.students, window({ totalCount: true }));
      expect(all.items.map((item) => item.keyValues)).toEqual([
        { studentUniqueId: 'a' },
        { studentUniqueId: 'c' },
        { studentUniqueId: 'd' },
      ]);
      expect(all.totalCount).toBe(3);
      const page = await current().deletes(resources.students, window({ offset: 1, limit: 1, totalCount: true }));
      expect(page).toEqual({ items: [all.items[1]], totalCount: 3 });
      const versions = all.items.map((item) => item.changeVersion);
      const bounded = await current().deletes(
        resources.students,
        window({ changeVersions: { min: versions[1], max: versions[1] } }),
      );
      expect(bounded.items).toEqual([all.items[1]]);
      expect((await current().deletes(resources.students, window({ limit: 0, totalCount: true }))).items).toEqual([]);
    });

    it('are reported by the deleted resource only (subclasses and descriptors apart)', async () => {
      await seedSampleDescriptors(current());
      const schoolOutcome = await upsert(resources.schools, school(1));
      const agency = await upsert(resources.localEducationAgencies, localEducationAgency(2));
      await current().delete(resources.schools, schoolOutcome.id);
      await current().delete(resources.localEducationAgencies, agency.id);
      const schools = await current().deletes(resources.schools, window());
      expect(schools.items.map((item) => [item.id, item.keyValues])).toEqual([[schoolOutcome.id, { schoolId: 1 }]]);
      const sex = (await current().list(resources.sexDescriptors, everything())).items[0]!;
      await current().delete(resources.sexDescriptors, sex.id);
      const descriptors = await current().deletes(resources.sexDescriptors, window());
      expect(descriptors.items.map((item) => item.keyValues)).toEqual([
        { codeValue: 'Female', namespace: 'uri://ed-fi.org/SexDescriptor' },
      ]);
      expect((await current().deletes(resources.gradeLevelDescriptors, window())).items).toEqual([]);
    });
  });

  describe('identity updates', () => {
    it('cascade a section key change to its associations: bodies, links, columns, versions and key changes', async () => {
      const chain = await sectionWithStudents();
      const before = await Promise.all(
        chain.enrolments.map((enrolment) => stored(resources.studentSectionAssociations, enrolment.id)),
      );
      const newestBefore = await current().newestChangeVersion();
      const renamed = { ...algebra, sectionIdentifier: 'ALG-1-02' };
      const outcome = await update(
        resources.sections,
        chain.section.id,
        section(renamed, { classPeriodNames: ['P1'], classroom: 'R101' }),
      );
      expect(outcome.id).toBe(chain.section.id);
      for (const [index, enrolment] of chain.enrolments.entries()) {
        const after = await stored(resources.studentSectionAssociations, enrolment.id);
        expect(after.changeVersion).toBeGreaterThan(newestBefore);
        expect(after.etag).not.toBe(before[index]!.etag);
        const body = JSON.parse(after.bodyJson) as Record<string, unknown>;
        expect(body.sectionReference).toEqual({
          ...renamed,
          link: { rel: 'Section', href: `/ed-fi/sections/${chain.section.id}` },
        });
      }
      // The typed columns follow: filters find the associations under the new key only.
      const byIdentifier = (sectionIdentifier: string) =>
        current()
          .list(
            resources.studentSectionAssociations,
            everything({ filters: [{ field: 'sectionIdentifier', value: sectionIdentifier }] }),
          )
          .then(({ items }) => items.length);
      expect([await byIdentifier('ALG-1-01'), await byIdentifier('ALG-1-02')]).toEqual([0, 2]);
      // The old key is free again, the new one taken.
      const { items } = await current().keyChanges(resources.studentSectionAssociations, window());
      expect(
        items.map((item) => [item.id, item.oldKeyValues.sectionIdentifier, item.newKeyValues.sectionIdentifier]),
      ).toEqual(chain.enrolments.map((enrolment) => [enrolment.id, 'ALG-1-01', 'ALG-1-02']));
      const [sectionChange] = (await current().keyChanges(resources.sections, window())).items;
      expect(sectionChange).toMatchObject({
        id: chain.section.id,
        oldKeyValues: { ...algebra },
        newKeyValues: { ...renamed },
      });
      expect(sectionChange!.changeVersion).toBeGreaterThan(newestBefore);
      const posted = await upsert(resources.studentSectionAssociations, studentSectionAssociation('s1', renamed));
      expect(posted.status).toBe('unchanged');
    });

    it('cascade recursively where the reference is part of the identity: session → offering → section → enrolments', async () => {
      const chain = await sectionWithStudents();
      await update(resources.sessions, chain.session.id, session(SCHOOL_ID, 'Autumn'));
      const changed = async (resource: ResourceModel) =>
        (await current().keyChanges(resource, window())).items.map((item) => item.newKeyValues.sessionName);
      expect(await changed(resources.sessions)).toEqual(['Autumn']);
      expect(await changed(resources.courseOfferings)).toEqual(['Autumn']);
      expect(await changed(resources.sections)).toEqual(['Autumn']);
      expect(await changed(resources.studentSectionAssociations)).toEqual(['Autumn', 'Autumn']);
      expect(
        ((await bodyOf(resources.sections, chain.section.id)).courseOfferingReference as { sessionName: string })
          .sessionName,
      ).toBe('Autumn');
      const enrolment = await bodyOf(resources.studentSectionAssociations, chain.enrolments[1]!.id);
      expect((enrolment.sectionReference as { sessionName: string }).sessionName).toBe('Autumn');
    });

    it('rewrite references outside the identity (inside collections too) without a key change of the referrer', async () => {
      const chain = await sectionWithStudents();
      const sectionBefore = await stored(resources.sections, chain.section.id);
      await update(resources.classPeriods, chain.period.id, classPeriod('Period 1', SCHOOL_ID));
      await update(resources.locations, chain.room.id, location('Room 101', SCHOOL_ID));
      const sectionAfter = await stored(resources.sections, chain.section.id);
      expect(sectionAfter.changeVersion).toBeGreaterThan(sectionBefore.changeVersion);
      const body = JSON.parse(sectionAfter.bodyJson) as Record<string, unknown>;
      expect(body.classPeriods).toEqual([
        {
          classPeriodReference: {
            classPeriodName: 'Period 1',
            schoolId: SCHOOL_ID,
            link: { rel: 'ClassPeriod', href: `/ed-fi/classPeriods/${chain.period.id}` },
          },
        },
      ]);
      expect(body.locationReference).toEqual({
        classroomIdentificationCode: 'Room 101',
        schoolId: SCHOOL_ID,
        link: { rel: 'Location', href: `/ed-fi/locations/${chain.room.id}` },
      });
      expect((await current().keyChanges(resources.sections, window())).items).toEqual([]);
      expect((await current().keyChanges(resources.classPeriods, window())).items).toHaveLength(1);
    });

    it('merge the key changes of one item within the window: the first old key, the last new key and version', async () => {
      const chain = await sectionWithStudents();
      const start = (await current().newestChangeVersion()) + 1;
      for (const name of ['P2', 'P3', 'P4'])
        await update(resources.classPeriods, chain.period.id, classPeriod(name, SCHOOL_ID));
      const merged = await current().keyChanges(resources.classPeriods, window({ totalCount: true }));
      expect(merged.totalCount).toBe(1);
      expect(merged.items).toEqual([
        expect.objectContaining({
          id: chain.period.id,
          oldKeyValues: { classPeriodName: 'P1', schoolId: SCHOOL_ID },
          newKeyValues: { classPeriodName: 'P4', schoolId: SCHOOL_ID },
        }),
      ]);
      const last = merged.items[0]!.changeVersion;
      const keys = async (min: number, max: number) =>
        (await current().keyChanges(resources.classPeriods, window({ changeVersions: { min, max } }))).items.map(
          (item) => [item.oldKeyValues.classPeriodName, item.newKeyValues.classPeriodName, item.changeVersion],
        );
      const [[, , secondLast]] = (await keys(start, last - 1)) as [[string, string, number]];
      expect(await keys(start, last - 1)).toEqual([['P1', 'P3', secondLast]]);
      expect(await keys(secondLast + 1, last)).toEqual([['P3', 'P4', last]]);
    });

    it('refuse a key another item has, changing nothing', async () => {
      const chain = await sectionWithStudents();
      await upsert(resources.classPeriods, classPeriod('P2', SCHOOL_ID));
      const newest = await current().newestChangeVersion();
      const error = await storeError(
        update(resources.classPeriods, chain.period.id, classPeriod('P2', SCHOOL_ID)),
        'non-unique-identity',
      );
      expect(error.resourceNames).toEqual(['ClassPeriod']);
      expect(await current().newestChangeVersion()).toBe(newest);
      expect((await bodyOf(resources.classPeriods, chain.period.id)).classPeriodName).toBe('P1');
    });

    it('refuse a cascade past the fan-out limit, changing nothing', async () => {
      const limited = await factory({ maxCascadeDocuments: 2 });
      try {
        const chain = await sectionWithStudents(limited.store);
        const newest = await limited.store.newestChangeVersion();
        // The session's cascade reaches the offering, the section and two enrolments: four documents.
        const error = await storeError(
          limited.store.update(chain.session.id, documentWrite(resources.sessions, session(SCHOOL_ID, 'Autumn'))),
          'cascade-limit-exceeded',
        );
        expect(error.message).toBe('The identity change would cascade to more than 2 documents.');
        expect(await limited.store.newestChangeVersion()).toBe(newest);
        const offering = JSON.parse((await limited.store.get(resources.courseOfferings, chain.offering.id))!.bodyJson);
        expect(offering.sessionReference.sessionName).toBe('Fall');
        // A change with fewer dependents passes.
        await limited.store.update(
          chain.period.id,
          documentWrite(resources.classPeriods, classPeriod('P2', SCHOOL_ID)),
        );
      } finally {
        await limited.dispose();
      }
    });
  });

  describe('partitions', () => {
    it('start every partition on a matching document, at least the minimum size apart', async () => {
      await seedSampleDescriptors(current());
      const docIds = [];
      for (let index = 0; index < 10; index++) {
        const outcome = await upsert(resources.students, student(`s${index}`, index % 2 === 0 ? 'Even' : 'Odd'));
        docIds.push((await stored(resources.students, outcome.id)).docId);
      }
      const starts = (count: number, minimumSize: number, filters: ListQuery['filters'] = []) =>
        current().partitionStarts(resources.students, { filters, count, minimumSize });
      expect(await starts(3, 1)).toEqual([docIds[0], docIds[4], docIds[8]]);
      expect(await starts(3, 5)).toEqual([docIds[0], docIds[5]]);
      expect(await starts(200, 1)).toEqual(docIds);
      expect(await starts(2, 1, [{ field: 'firstName', value: 'Odd' }])).toEqual([docIds[1], docIds[7]]);
      expect(await starts(2, 2500)).toEqual([docIds[0]]);
      expect(await starts(2, 1, [{ field: 'firstName', value: 'None' }])).toEqual([]);
      const recent = await current().partitionStarts(resources.students, {
        filters: [],
        changeVersions: { min: docIds[6] },
        count: 10,
        minimumSize: 1,
      });
      expect(recent).toEqual(docIds.slice(6));
    });
  });

  describe('snapshots', () => {
    it('read the data as it was when the session opened it, until a fresh one is asked for', async () => {
      await seedSampleDescriptors(current());
      const first = await upsert(resources.students, student('s1'));
      const snapshot = (await current().snapshot('client-a'))!;
      const newest = await current().newestChangeVersion();
      await update(resources.students, first.id, student('s1', 'Grace'));
      const second = await upsert(resources.students, student('s2'));
      await current().delete(resources.students, first.id);
      expect(await snapshot.newestChangeVersion()).toBe(newest);
      expect((await snapshot.list(resources.students, everything())).items.map((item) => item.id)).toEqual([first.id]);
      expect(JSON.parse((await snapshot.get(resources.students, first.id))!.bodyJson).firstName).toBe('Ada');
      expect((await snapshot.deletes(resources.students, window())).items).toEqual([]);
      // The same session keeps its moment; another session, or a fresh one, sees now.
      const again = (await current().snapshot('client-a'))!;
      expect(await again.get(resources.students, second.id)).toBeUndefined();
      const other = (await current().snapshot('client-b'))!;
      expect(await other.get(resources.students, second.id)).toBeDefined();
      const fresh = (await current().snapshot('client-a', { fresh: true }))!;
      expect(await fresh.newestChangeVersion()).toBe(await current().newestChangeVersion());
      expect((await fresh.deletes(resources.students, window())).items.map((item) => item.id)).toEqual([first.id]);
    });

    it('are not kept when the store allows none', async () => {
      const without = await factory({ maxSnapshots: 0 });
      try {
        expect(await without.store.snapshot('client-a')).toBeUndefined();
      } finally {
        await without.dispose();
      }
    });
  });
}
