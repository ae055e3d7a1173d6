// The store's side of authorization (storage design §3.6): the ed-org closure kept by writes, and the relations and
// filters evaluated over it and the association tables, including the Inverted and ThroughResponsibility forms.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allowEveryAction, SYSTEM_CALLER, updateDocument, type DataServices } from '../../src/api/index.js';
import { getModelRegistry, type ResourceModel } from '../../src/model/index.js';
import { seedSchoolYears } from '../../src/setup/first-start.js';
import { openStore, type RelationshipRule, type Store, type SubjectRelation } from '../../src/store/index.js';
import { localEducationAgency, school, stateEducationAgency, student } from '../support/district-documents.js';
import { systemPost } from '../support/system-writes.js';

const registry = getModelRegistry();
const resourceOf = (endpoint: string): ResourceModel => registry.getResource('ed-fi', endpoint)!;
let store: Store;
let services: DataServices;

const post = (endpoint: string, document: object) => systemPost(store, registry, endpoint, document);

async function related(claims: number[], relation: SubjectRelation, value: string | number): Promise<boolean> {
  const [answer] = await store.relatedSubjects(claims, [{ relation, value }]);
  return answer!;
}

/** A store with the default descriptors and school years, as first start leaves it. */
async function openSeeded(location: string): Promise<Store> {
  const opened = await openStore(location, registry);
  for (const descriptor of registry.descriptorResources)
    await opened.seedDescriptors(descriptor, registry.descriptorValuesOf(descriptor.resourceName));
  await seedSchoolYears(opened, registry);
  return opened;
}

beforeEach(async () => {
  store = await openSeeded('sqlite::memory:');
  services = { store, registry, authorize: allowEveryAction };
  await post('stateEducationAgencies', stateEducationAgency(1));
  await post('localEducationAgencies', localEducationAgency(10, 1));
  await post('localEducationAgencies', localEducationAgency(20, 1));
  await post('schools', school(101, 10));
});

afterEach(() => store.close());

describe('the ed-org closure', () => {
  it('relates an ed-org to itself and everything below it, transitively', async () => {
    expect(await related([1], 'edOrgDescendant', 101)).toBe(true);
    expect(await related([10], 'edOrgDescendant', 101)).toBe(true);
    expect(await related([20], 'edOrgDescendant', 101)).toBe(false);
    expect(await related([101], 'edOrgDescendant', 10)).toBe(false);
    // A claim matches itself even when no such ed-org is stored.
    expect(await related([999], 'edOrgDescendant', 999)).toBe(true);
  });

  it('Inverted relations go upwards', async () => {
    expect(await related([101], 'edOrgAncestor', 10)).toBe(true);
    expect(await related([101], 'edOrgAncestor', 1)).toBe(true);
    expect(await related([101], 'edOrgAncestor', 20)).toBe(false);
  });

  it('follows a school moved to another LEA, and forgets a deleted one', async () => {
    const id = await post('schools', school(102, 10));
    const request = { resource: resourceOf('schools'), caller: SYSTEM_CALLER, collectionUrl: '', headers: {} };
    await updateDocument(services, request, id, school(102, 20));
    expect(await related([20], 'edOrgDescendant', 102)).toBe(true);
    expect(await related([10], 'edOrgDescendant', 102)).toBe(false);
    expect(await related([1], 'edOrgDescendant', 102)).toBe(true);
    await store.delete(resourceOf('schools'), id);
    expect(await related([1], 'edOrgDescendant', 102)).toBe(false);
  });
});

describe('a store written before the closure existed', () => {
  it('builds the closure from the stored ed-orgs when it opens', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'edorg-closure-'));
    const location = `sqlite:${join(directory, 'store.db')}`;
    try {
      const older = await openSeeded(location);
      await systemPost(older, registry, 'stateEducationAgencies', stateEducationAgency(1));
      await systemPost(older, registry, 'localEducationAgencies', localEducationAgency(10, 1));
      await systemPost(older, registry, 'schools', school(101, 10));
      await older.close();
      const raw = new Database(join(directory, 'store.db'));
      raw.exec('DELETE FROM edorg_closure; DELETE FROM edorg_parent;');
      raw.close();
      const reopened = await openStore(location, registry);
      const [fromSea, fromSchool] = await reopened.relatedSubjects(
        [1],
        [
          { relation: 'edOrgDescendant', value: 101 },
          { relation: 'edOrgAncestor', value: 1 },
        ],
      );
      expect([fromSea, fromSchool]).toEqual([true, true]);
      await reopened.close();
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('people relations and list filters', () => {
  beforeEach(async () => {
    for (const id of ['S1', 'S2']) await post('students', student(id));
    await post('studentEducationOrganizationResponsibilityAssociations', {
      studentReference: { studentUniqueId: 'S2' },
      educationOrganizationReference: { educationOrganizationId: 10 },
      responsibilityDescriptor: 'uri://ed-fi.org/ResponsibilityDescriptor#Accountability',
      beginDate: '2021-01-01',
    });
  });

  it('ThroughResponsibility relates students by the responsibility association only', async () => {
    expect(await related([10], 'studentResponsibility', 'S2')).toBe(true);
    expect(await related([10], 'studentEnrollment', 'S2')).toBe(false);
    expect(await related([20], 'studentResponsibility', 'S2')).toBe(false);
  });

  it('reads one item together with whether it passes an access filter, the same answer a list gives', async () => {
    const students = resourceOf('students');
    const s2 = (
      await store.list(students, {
        filters: [{ field: 'studentUniqueId', value: 'S2' }],
        offset: 0,
        limit: 1,
        totalCount: false,
      })
    ).items[0]!;
    const rule = (students: RelationshipRule['students']): RelationshipRule => ({
      educationOrganizations: 'descendants',
      students,
      staffs: false,
      contacts: false,
    });
    const read = (claims: number[], rules: RelationshipRule[]) =>
      store.getAuthorized(students, s2.id, { educationOrganizationIds: claims, relationships: rules });
    expect(await read([10], [rule('responsibility')])).toEqual({ document: s2, authorized: true });
    // Through the closure: the state agency is above the LEA that holds the responsibility.
    expect((await read([1], [rule('responsibility')]))?.authorized).toBe(true);
    expect((await read([20], [rule('responsibility')]))?.authorized).toBe(false);
    expect((await read([10], [rule('enrollment')]))?.authorized).toBe(false);
    expect((await read([10], [rule('enrollment'), rule('responsibility')]))?.authorized).toBe(true);
    expect(
      await store.getAuthorized(students, '0'.repeat(32), { educationOrganizationIds: [10], relationships: [] }),
    ).toBe(undefined);
  });

  it('a list filter keeps the rows whose subjects satisfy any rule', async () => {
    const inverted: RelationshipRule = {
      educationOrganizations: 'ancestors',
      students: 'none',
      staffs: false,
      contacts: false,
    };
    const list = (rules: RelationshipRule[], claims: number[]) =>
      store.list(resourceOf('localEducationAgencies'), {
        filters: [],
        offset: 0,
        limit: 25,
        totalCount: true,
        access: { educationOrganizationIds: claims, relationships: rules },
      });
    const fromSchool = await list([inverted], [101]);
    expect(fromSchool.totalCount).toBe(1);
    expect(JSON.parse(fromSchool.items[0]!.bodyJson)).toMatchObject({ localEducationAgencyId: 10 });
    const descendants: RelationshipRule = { ...inverted, educationOrganizations: 'descendants' };
    expect((await list([descendants, inverted], [20])).totalCount).toBe(1);
    expect((await list([descendants], [1])).totalCount).toBe(2);
  });
});
