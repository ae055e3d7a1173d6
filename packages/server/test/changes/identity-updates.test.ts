// Identity updates through HTTP (contract §3.5, §4.6, §6.4): a PUT that changes the natural key of an updatable
// resource cascades to its referrers; collisions, other resources and too large cascades are refused.
import { afterEach, describe, expect, it } from 'vitest';
import { describeEachStore } from '../support/each-store.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { expectProblem, WITH_CORRELATION } from '../support/problems.js';
import { classPeriod, section, student } from '../store/sample-documents.js';
import { algebra, postSectionWithStudents, SCHOOL_ID } from './support.js';

type Item = Record<string, unknown>;

describeEachStore('identity updates', (stores) => {
  let app: EdFiTestServer;

  afterEach(() => app.close());

  describe('PUT with a new natural key', () => {
    it('answers 204 and cascades to every referrer: references, links, etags and key changes', async () => {
      app = await startEdFiServer({ store: await stores.newSpec() });
      const chain = await postSectionWithStudents(app);
      const etagsBefore = await Promise.all(
        chain.enrolments.map(
          async (id) => (await app.data('GET', `/ed-fi/studentSectionAssociations/${id}`)).headers.etag,
        ),
      );
      const renamed = { ...algebra, sectionIdentifier: 'ALG-1-02' };
      const response = await app.data('PUT', `/ed-fi/sections/${chain.section}`, {
        body: section(renamed, { classPeriodNames: ['P1'], classroom: 'R101' }),
      });
      expect(response.status).toBe(204);
      expect(response.headers.location).toMatch(new RegExp(`/ed-fi/sections/${chain.section}$`));
      const sectionItem = (await app.data('GET', `/ed-fi/sections/${chain.section}`)).json<Item>();
      expect(sectionItem.sectionIdentifier).toBe('ALG-1-02');
      expect(`"${String(sectionItem._etag)}"`).toBe(response.headers.etag);
      for (const [index, id] of chain.enrolments.entries()) {
        const enrolment = await app.data('GET', `/ed-fi/studentSectionAssociations/${id}`);
        expect(enrolment.headers.etag).not.toBe(etagsBefore[index]);
        expect(enrolment.json<Item>().sectionReference).toEqual({
          ...renamed,
          link: { rel: 'Section', href: `/ed-fi/sections/${chain.section}` },
        });
      }
      const byNewKey = await app.data('GET', '/ed-fi/studentSectionAssociations?sectionIdentifier=ALG-1-02');
      expect(byNewKey.json<Item[]>().map((item) => item.id)).toEqual(chain.enrolments);
      const keyChanges = (await app.data('GET', '/ed-fi/studentSectionAssociations/keyChanges')).json<Item[]>();
      expect(keyChanges.map((entry) => [entry.id, entry.oldKeyValues, entry.newKeyValues])).toEqual(
        chain.enrolments.map((id, index) => {
          const key = { beginDate: '2021-08-23', ...algebra, studentUniqueId: `s${index + 1}` };
          return [id, key, { ...key, sectionIdentifier: 'ALG-1-02' }];
        }),
      );
      // Every cascaded write is newer than the key change that caused it was requested.
      const [sectionChange] = (await app.data('GET', '/ed-fi/sections/keyChanges')).json<{ changeVersion: number }[]>();
      expect(keyChanges.every((entry) => Number(entry.changeVersion) > sectionChange!.changeVersion)).toBe(true);
    });

    it('refuses a key another item already has with the non-unique-identity problem, changing nothing', async () => {
      app = await startEdFiServer({ store: await stores.newSpec() });
      const chain = await postSectionWithStudents(app);
      await app.data('POST', '/ed-fi/classPeriods', { body: classPeriod('P2', SCHOOL_ID) });
      const response = await app.data('PUT', `/ed-fi/classPeriods/${chain.period}`, {
        body: classPeriod('P2', SCHOOL_ID),
        headers: WITH_CORRELATION,
      });
      expectProblem(response, {
        detail: 'The identifying value(s) of the item are the same as another item that already exists.',
        type: 'urn:ed-fi:api:data-conflict:non-unique-identity',
        title: 'Identifying Values Are Not Unique',
        status: 409,
        errors: [
          "A primary key conflict occurred when attempting to create or update a record in the 'ClassPeriod' table.",
        ],
      });
      expect((await app.data('GET', `/ed-fi/classPeriods/${chain.period}`)).json<Item>().classPeriodName).toBe('P1');
      expect((await app.data('GET', '/ed-fi/classPeriods/keyChanges')).body).toBe('[]');
    });

    it('keeps refusing key changes of resources that do not allow them', async () => {
      app = await startEdFiServer({ store: await stores.newSpec() });
      const id = (await app.data('POST', '/ed-fi/students', { body: student('s1') })).headers
        .location!.split('/')
        .pop();
      expectProblem(
        await app.data('PUT', `/ed-fi/students/${id}`, { body: student('s2'), headers: WITH_CORRELATION }),
        {
          detail: 'Identifying values for the Student data cannot be changed. Delete and recreate the item instead.',
          type: 'urn:ed-fi:api:bad-request:data-validation-failed:key-change-not-supported',
          title: 'Key Change Not Supported',
          status: 400,
        },
      );
    });

    it('refuses a cascade past the store’s fan-out limit with the dependent-item-exists problem', async () => {
      app = await startEdFiServer({ store: await stores.newSpec(), storeOptions: { maxCascadeDocuments: 1 } });
      const chain = await postSectionWithStudents(app);
      const response = await app.data('PUT', `/ed-fi/sections/${chain.section}`, {
        body: section({ ...algebra, sectionIdentifier: 'ALG-1-02' }),
        headers: WITH_CORRELATION,
      });
      expectProblem(response, {
        detail:
          'The identifying values of this item cannot be changed because too many items that reference it would have ' +
          'to change with it.',
        type: 'urn:ed-fi:api:data-conflict:dependent-item-exists',
        title: 'Dependent Item Exists',
        status: 409,
        errors: ['The identity change would cascade to more than 1 documents.'],
      });
      expect((await app.data('GET', `/ed-fi/sections/${chain.section}`)).json<Item>().sectionIdentifier).toBe(
        'ALG-1-01',
      );
    });
  });
});
