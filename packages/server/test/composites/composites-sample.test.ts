// The ed-fi enrollment composites over the Grand Bend sample (plus enrolments and a second district): every composite
// and nested route of DS4AndDS5_Composites.xml, bodies against expectations written from the definition, paging and
// limits, filter parameters, and authorization as reads of the base resource, on SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectResponse } from '@edfi-api/framework';
import { describeEachStore } from '../support/each-store.js';
import { describeWithEdfiSource } from '../support/edfi-source.js';
import { BASE_PATH, issueToken, startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import {
  GRAND_BEND,
  loadEnrollmentSample,
  OTHER_DISTRICT,
  OTHER_SCHOOL,
  OTHER_STUDENT,
  systemRequests,
} from './support/enrollment-sample.js';
import {
  expectedLocalEducationAgency,
  expectedSchool,
  expectedSection,
  expectedStaff,
  expectedStudent,
  readSampleData,
  referencesSection,
  type SampleData,
} from './support/expected-composites.js';

type Doc = Record<string, unknown>;
const ENROLLMENT = `${BASE_PATH}/composites/v1/ed-fi/enrollment`;
const COMPOSITES = ['localEducationAgencies', 'schools', 'sections', 'staffs', 'students'] as const;
type Composite = (typeof COMPOSITES)[number];

function ref(document: Doc, name: string): Doc {
  return (document[name] ?? {}) as Doc;
}

const sorted = (ids: readonly unknown[]) => [...new Set(ids)].map(String).sort();

describeWithEdfiSource('the enrollment composites', () => {
  describeEachStore('over the Grand Bend sample', (stores) => {
    let edfi: EdFiTestServer;
    let data: SampleData;
    let get: (path: string, token?: string) => Promise<InjectResponse>;
    let systemToken: string;

    beforeAll(async () => {
      edfi = await startEdFiServer({ store: await stores.newSpec(), enforceAuthorization: true });
      const system = await systemRequests(edfi);
      systemToken = system.token;
      await loadEnrollmentSample(edfi, system.request);
      data = await readSampleData(edfi.store);
      get = (path, token = systemToken) =>
        edfi.server.inject({ url: `${ENROLLMENT}${path}`, headers: { authorization: `Bearer ${token}` } });
    }, 300_000);
    afterAll(() => edfi?.close());

    /** Every item of a composite list, page by page at the largest limit. */
    async function allPages(path: string, token?: string): Promise<Doc[]> {
      const items: Doc[] = [];
      for (let offset = 0; ; offset += 100) {
        const response = await get(`${path}${path.includes('?') ? '&' : '?'}limit=100&offset=${offset}`, token);
        expect(response.status, response.body).toBe(200);
        const page = response.json<Doc[]>();
        items.push(...page);
        if (page.length < 100) return items;
      }
    }

    const expectedOf = (composite: Composite, document: Doc): Doc => {
      switch (composite) {
        case 'localEducationAgencies':
          return expectedLocalEducationAgency(document);
        case 'schools':
          return expectedSchool(data, document);
        case 'sections':
          return expectedSection(data, document);
        case 'staffs':
          return expectedStaff(data, document);
        case 'students':
          return expectedStudent(data, document);
      }
    };

    it.each(COMPOSITES)('%s: every item, as the definition builds it', async (composite) => {
      const expected = data[composite].map((document) => expectedOf(composite, document));
      expect(expected.length).toBeGreaterThan(0);
      expect(await allPages(`/${composite}`)).toEqual(expected);
    });

    it('writes members in definition order and enrolments, demographics, staff and sessions are there', async () => {
      const section = data.sections.find(
        (candidate) =>
          data.studentSectionAssociations.some((association) => referencesSection(association, candidate)) &&
          data.staffSectionAssociations.some((association) => referencesSection(association, candidate)),
      )!;
      const body = (await get(`/sections/${section.id as string}`)).json<Doc>();
      expect(Object.keys(body).filter((key) => key !== 'maximumAvailableCreditTypeDescriptor')).toEqual(
        ['id', 'sectionIdentifier', 'sequenceOfCourse', 'educationalEnvironmentDescriptor', 'availableCredits']
          .concat(['staff', 'students', 'session', 'classPeriods', 'localCourseCode', 'localCourseTitle', 'location'])
          .filter((key) => key in body),
      );
      expect((body.students as Doc[]).length).toBeGreaterThan(0);
      expect(Object.keys(body.session as Doc)).toEqual(
        ['id', 'schoolId', 'schoolYear', 'termDescriptor', 'sessionName', 'beginDate', 'endDate'].concat(
          'totalInstructionalDays' in (body.session as Doc) ? ['totalInstructionalDays'] : [],
        ),
      );
      const students = await allPages('/students');
      expect(students.filter((student) => 'studentSchoolEnrollments' in student)).not.toHaveLength(0);
      expect(students.filter((student) => 'studentDemographics' in student)).not.toHaveLength(0);
    });

    it.each(COMPOSITES)('%s/{id}: the item as the list has it, 404 for an unknown id', async (composite) => {
      const document = data[composite][0]!;
      const response = await get(`/${composite}/${document.id as string}`);
      expect(response.status, response.body).toBe(200);
      expect(response.json()).toEqual(expectedOf(composite, document));
      const unknown = await get(`/${composite}/00000000000000000000000000000001`);
      expect(unknown.status).toBe(404);
      expect(unknown.json<Doc>().type).toBe('urn:ed-fi:api:not-found');
      expect((await get(`/${composite}/not-a-guid`)).status).toBe(404);
    });

    it('unknown categories and composites are 404', async () => {
      for (const path of [
        `${BASE_PATH}/composites/v1/ed-fi/other/students`,
        `${BASE_PATH}/composites/v1/acme/enrollment/students`,
        `${ENROLLMENT}/parents`,
      ]) {
        const response = await edfi.server.inject({ url: path, headers: { authorization: `Bearer ${systemToken}` } });
        expect(response.status, path).toBe(404);
      }
    });

    it('names are matched case-insensitively', async () => {
      const response = await edfi.server.inject({
        url: `${BASE_PATH}/Composites/v1/ED-FI/Enrollment/LocalEducationAgencies`,
        headers: { authorization: `Bearer ${systemToken}` },
      });
      expect(response.status).toBe(200);
      expect(response.json<Doc[]>().map((lea) => lea.localEducationAgencyId)).toEqual(
        data.localEducationAgencies.map((lea) => lea.localEducationAgencyId),
      );
    });

    it('answers 401 without a token', async () => {
      const response = await edfi.server.inject({ url: `${ENROLLMENT}/students` });
      expect(response.status).toBe(401);
    });

    describe('paging', () => {
      it('pages by offset, 25 items when limit is left out', async () => {
        const all = await allPages('/students');
        expect((await get('/students')).json<Doc[]>()).toEqual(all.slice(0, 25));
        expect((await get('/students?offset=30&limit=7')).json<Doc[]>()).toEqual(all.slice(30, 37));
        const counted = await get('/students?limit=1&totalCount=true');
        expect(counted.headers['total-count']).toBe(String(data.students.length));
        expect((await get(`/students?offset=${all.length}`)).json()).toEqual([]);
      });

      it.each(['0', '101', '-1', 'ten'])('limit=%s is 400', async (limit) => {
        const response = await get(`/students?limit=${limit}`);
        expect(response.status).toBe(400);
        expect(response.json<Doc>()).toMatchObject({
          type: 'urn:ed-fi:api:bad-request:parameter-validation-failed',
          title: 'Parameter Validation Failed',
          status: 400,
          detail: 'The limit parameter was incorrect.',
          errors: ['Limit must be omitted or set to a value between 1 and 100.'],
        });
      });

      it('accepts limit=1 and limit=100, refuses a negative offset', async () => {
        expect((await get('/staffs?limit=1')).json<Doc[]>()).toHaveLength(1);
        expect((await get('/staffs?limit=100')).json<Doc[]>()).toHaveLength(Math.min(100, data.staffs.length));
        const negative = await get('/staffs?offset=-1');
        expect(negative.status).toBe(400);
        expect(negative.json<Doc>().type).toBe('urn:ed-fi:api:bad-request:parameter-validation-failed');
      });
    });

    describe('filter parameters', () => {
      const idsOf = async (path: string) => sorted((await allPages(path)).map((item) => item.id));
      const enrolledAt = (schoolIds: readonly unknown[]) =>
        data.studentSchoolAssociations
          .filter((association) => schoolIds.includes(ref(association, 'schoolReference').schoolId))
          .map((association) => ref(association, 'studentReference').studentUniqueId);
      const studentIds = (uniqueIds: readonly unknown[]) =>
        data.students.filter((student) => uniqueIds.includes(student.studentUniqueId)).map((student) => student.id);

      it('students by schoolId, localEducationAgencyId and studentUniqueId', async () => {
        const schoolId = data.schools[1]!.schoolId;
        expect(await idsOf(`/students?schoolId=${schoolId as number}`)).toEqual(
          sorted(studentIds(enrolledAt([schoolId]))),
        );
        const grandBendSchools = data.schools
          .filter((school) => ref(school, 'localEducationAgencyReference').localEducationAgencyId === GRAND_BEND)
          .map((school) => school.schoolId);
        expect(await idsOf(`/students?localEducationAgencyId=${GRAND_BEND}`)).toEqual(
          sorted(studentIds(enrolledAt(grandBendSchools))),
        );
        const student = data.students[3]!;
        expect(await idsOf(`/students?studentUniqueId=${student.studentUniqueId as string}`)).toEqual([student.id]);
        expect(
          await idsOf(`/students?studentUniqueId=${student.studentUniqueId as string}&schoolId=${OTHER_SCHOOL}`),
        ).toEqual([]);
      });

      it('sections, schools, staffs and districts by their parameters', async () => {
        const schoolId = data.schools[0]!.schoolId;
        expect(await idsOf(`/sections?schoolId=${schoolId as number}`)).toEqual(
          sorted(
            data.sections
              .filter((section) => ref(section, 'courseOfferingReference').schoolId === schoolId)
              .map((section) => section.id),
          ),
        );
        expect(await idsOf(`/schools?localEducationAgencyId=${OTHER_DISTRICT}`)).toEqual(
          sorted(data.schools.filter((school) => school.schoolId === OTHER_SCHOOL).map((school) => school.id)),
        );
        expect(await idsOf(`/schools?schoolId=${schoolId as number}`)).toEqual([data.schools[0]!.id]);
        const staff = data.staffs[2]!;
        expect(await idsOf(`/staffs?staffUniqueId=${staff.staffUniqueId as string}`)).toEqual([staff.id]);
        expect(await idsOf(`/localEducationAgencies?localEducationAgencyId=${OTHER_DISTRICT}`)).toEqual(
          sorted(
            data.localEducationAgencies
              .filter((lea) => lea.localEducationAgencyId === OTHER_DISTRICT)
              .map((lea) => lea.id),
          ),
        );
      });

      it('a value of the wrong type is 400', async () => {
        const response = await get('/students?schoolId=abc');
        expect(response.status).toBe(400);
        expect(response.json<Doc>().type).toBe('urn:ed-fi:api:bad-request:data-validation-failed');
      });
    });

    describe('nested routes', () => {
      // Relationships computed from the data API's documents, the way the definition's filter paths read them.
      const schoolsOfDistrict = (leaId: unknown) =>
        data.schools.filter((school) => ref(school, 'localEducationAgencyReference').localEducationAgencyId === leaId);
      const sectionsAt = (schoolIds: readonly unknown[]) =>
        data.sections.filter((section) => schoolIds.includes(ref(section, 'courseOfferingReference').schoolId));
      const studentsAt = (schoolIds: readonly unknown[]) => {
        const uniqueIds = data.studentSchoolAssociations
          .filter((association) => schoolIds.includes(ref(association, 'schoolReference').schoolId))
          .map((association) => ref(association, 'studentReference').studentUniqueId);
        return data.students.filter((student) => uniqueIds.includes(student.studentUniqueId));
      };
      /** A kind of person's section associations, their reference to the person and the person's unique id name. */
      const sectionLinks = (kind: 'staff' | 'student') =>
        kind === 'staff'
          ? { associations: data.staffSectionAssociations, referenceName: 'staffReference', key: 'staffUniqueId' }
          : {
              associations: data.studentSectionAssociations,
              referenceName: 'studentReference',
              key: 'studentUniqueId',
            };
      const people = (sections: readonly Doc[], kind: 'staff' | 'student') => {
        const { associations, referenceName, key } = sectionLinks(kind);
        const uniqueIds = associations
          .filter((association) => sections.some((section) => referencesSection(association, section)))
          .map((association) => ref(association, referenceName)[key]);
        return (kind === 'staff' ? data.staffs : data.students).filter((person) => uniqueIds.includes(person[key]));
      };
      const sectionsOf = (kind: 'staff' | 'student', person: Doc) => {
        const { associations, referenceName, key } = sectionLinks(kind);
        const mine = associations.filter((association) => ref(association, referenceName)[key] === person[key]);
        return data.sections.filter((section) => mine.some((association) => referencesSection(association, section)));
      };
      const schoolsOf = (sections: readonly Doc[]) =>
        data.schools.filter((school) =>
          sections.some((section) => ref(section, 'courseOfferingReference').schoolId === school.schoolId),
        );

      /** A person's sections, their schools, and the people of the other kind in them. */
      const throughSections = (kind: 'staff' | 'student', person: Doc): Partial<Record<Composite, Doc[]>> => {
        const sections = sectionsOf(kind, person);
        const others =
          kind === 'staff' ? { students: people(sections, 'student') } : { staffs: people(sections, 'staff') };
        return { schools: schoolsOf(sections), sections, ...others };
      };

      type Parent = 'localEducationAgencies' | 'schools' | 'sections' | 'staffs' | 'students';
      /** The parent documents the routes are tried with, and what each composite under them should list. */
      const routes = (): Record<Parent, { parent: Doc; expected: Partial<Record<Composite, Doc[]>> }> => {
        const district = data.localEducationAgencies.find((lea) => lea.localEducationAgencyId === GRAND_BEND)!;
        const districtSchools = schoolsOfDistrict(GRAND_BEND).map((school) => school.schoolId);
        const school = data.schools[0]!;
        const section = data.sections.find(
          (candidate) => people([candidate], 'staff').length > 0 && people([candidate], 'student').length > 0,
        )!;
        const staff = people([section], 'staff')[0]!;
        const student = people([section], 'student')[0]!;
        return {
          localEducationAgencies: {
            parent: district,
            expected: {
              schools: schoolsOfDistrict(GRAND_BEND),
              sections: sectionsAt(districtSchools),
              staffs: people(sectionsAt(districtSchools), 'staff'),
              students: studentsAt(districtSchools),
            },
          },
          schools: {
            parent: school,
            expected: {
              sections: sectionsAt([school.schoolId]),
              staffs: people(sectionsAt([school.schoolId]), 'staff'),
              students: studentsAt([school.schoolId]),
            },
          },
          sections: {
            parent: section,
            expected: {
              schools: schoolsOf([section]),
              staffs: people([section], 'staff'),
              students: people([section], 'student'),
            },
          },
          staffs: { parent: staff, expected: throughSections('staff', staff) },
          students: { parent: student, expected: throughSections('student', student) },
        };
      };

      const PARENTS: Parent[] = ['localEducationAgencies', 'schools', 'sections', 'staffs', 'students'];
      it.each(PARENTS)(
        'under /%s/{id}: each composite the definition allows there, 404 for the others',
        async (name) => {
          const { parent, expected } = routes()[name];
          for (const composite of COMPOSITES) {
            const path = `/${name}/${parent.id as string}/${composite}`;
            const wanted = expected[composite];
            if (wanted === undefined) {
              expect((await get(path)).status, path).toBe(404);
              continue;
            }
            expect(wanted.length, path).toBeGreaterThan(0);
            const items = await allPages(path);
            expect(sorted(items.map((item) => item.id)), path).toEqual(sorted(wanted.map((document) => document.id)));
            const byId = new Map(wanted.map((document) => [document.id, expectedOf(composite, document)]));
            for (const item of items) expect(item, path).toEqual(byId.get(item.id));
          }
        },
      );

      it('an unknown parent lists nothing; a parent id that is not a GUID is 404', async () => {
        expect((await get('/schools/00000000000000000000000000000001/students')).json()).toEqual([]);
        expect((await get('/schools/not-a-guid/students')).status).toBe(404);
        expect((await get(`/courses/${data.schools[0]!.id as string}/students`)).status).toBe(404);
      });
    });

    describe('authorization, as reads of the base resource', () => {
      let grandBendToken: string;
      let otherToken: string;
      beforeAll(async () => {
        grandBendToken = await issueToken(edfi.server, edfi.store, {
          claimSet: 'SIS Vendor',
          educationOrganizationIds: [GRAND_BEND],
        });
        otherToken = await issueToken(edfi.server, edfi.store, {
          claimSet: 'SIS Vendor',
          educationOrganizationIds: [OTHER_DISTRICT],
        });
      });

      const dataIds = async (resource: string, token: string): Promise<string[]> => {
        const ids: unknown[] = [];
        for (let offset = 0; ; offset += 500) {
          const response = await edfi.server.inject({
            url: `${BASE_PATH}/data/v3/ed-fi/${resource}?limit=500&offset=${offset}`,
            headers: { authorization: `Bearer ${token}` },
          });
          expect(response.status, response.body).toBe(200);
          const page = response.json<Doc[]>();
          ids.push(...page.map((document) => document.id));
          if (page.length < 500) return sorted(ids);
        }
      };

      it("an LEA-scoped client sees only its district's students", async () => {
        const grandBend = sorted((await allPages('/students', grandBendToken)).map((student) => student.id));
        const enrolledInGrandBend = data.studentSchoolAssociations
          .filter((association) => ref(association, 'schoolReference').schoolId !== OTHER_SCHOOL)
          .map((association) => ref(association, 'studentReference').studentUniqueId);
        expect(grandBend).toEqual(
          sorted(data.students.filter((s) => enrolledInGrandBend.includes(s.studentUniqueId)).map((s) => s.id)),
        );
        const other = data.students.find((student) => student.studentUniqueId === OTHER_STUDENT)!;
        expect(sorted((await allPages('/students', otherToken)).map((student) => student.id))).toEqual([other.id]);
        expect((await get(`/students/${other.id as string}`, grandBendToken)).status).toBe(403);
        expect((await get(`/students/${other.id as string}`, otherToken)).status).toBe(200);
        const otherDistrict = data.localEducationAgencies.find((lea) => lea.localEducationAgencyId === OTHER_DISTRICT)!;
        expect(
          await allPages(`/localEducationAgencies/${otherDistrict.id as string}/students`, grandBendToken),
        ).toEqual([]);
        const counted = await get('/students?limit=1&totalCount=true', grandBendToken);
        expect(counted.headers['total-count']).toBe(String(grandBend.length));
      });

      it.each(COMPOSITES)('%s: each client sees the items its data GET lists', async (composite) => {
        for (const token of [grandBendToken, otherToken]) {
          const composites = sorted((await allPages(`/${composite}`, token)).map((item) => item.id));
          expect(composites).toEqual(await dataIds(composite, token));
        }
      });
    });
  });
});
