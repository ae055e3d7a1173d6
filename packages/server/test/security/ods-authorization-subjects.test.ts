// Authorization as an ODS 7.3 does it, through HTTP with district- and school-scoped clients: on the subjects the ODS
// generates per resource (role-named ed-org ids are not subjects unless an ODS override makes them one), and with the
// ODS claim sets (reference data of the LEA readable by its schools through the inverted hierarchy).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataClient, type DataClient } from '../support/data-client.js';
import { enrollment, localEducationAgency, school, student } from '../support/district-documents.js';
import { describeEachStore } from '../support/each-store.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';
import { systemPost } from '../support/system-writes.js';

const LEA = 255901;
const OTHER_LEA = 255902;
const SCHOOL = 255901001;
const SECOND_SCHOOL = 255901044;
const OTHER_SCHOOL = 255902001;

const PROGRAM_TYPE = 'uri://ed-fi.org/ProgramTypeDescriptor#Athletics';
const program = (educationOrganizationId: number) => ({
  educationOrganizationReference: { educationOrganizationId },
  programName: `Program of ${educationOrganizationId}`,
  programTypeDescriptor: PROGRAM_TYPE,
});
const programReference = (educationOrganizationId: number) => ({
  educationOrganizationId,
  programName: `Program of ${educationOrganizationId}`,
  programTypeDescriptor: PROGRAM_TYPE,
});
const evaluationKey = (programEducationOrganizationId: number) => ({
  programEducationOrganizationId,
  programName: `Program of ${programEducationOrganizationId}`,
  programTypeDescriptor: PROGRAM_TYPE,
  programEvaluationPeriodDescriptor: 'uri://ed-fi.org/ProgramEvaluationPeriodDescriptor#End of Year',
  programEvaluationTitle: 'Evaluation',
  programEvaluationTypeDescriptor: 'uri://ed-fi.org/ProgramEvaluationTypeDescriptor#Observation',
});
const programEvaluation = (educationOrganizationId: number) => {
  const {
    programEducationOrganizationId: _id,
    programName: _name,
    programTypeDescriptor: _type,
    ...rest
  } = evaluationKey(educationOrganizationId);
  return { programReference: programReference(educationOrganizationId), ...rest };
};
const programEvaluationObjective = (educationOrganizationId: number) => ({
  programEvaluationReference: evaluationKey(educationOrganizationId),
  programEvaluationObjectiveTitle: 'Objective',
});
const programEvaluationElement = (educationOrganizationId: number) => ({
  programEvaluationReference: evaluationKey(educationOrganizationId),
  programEvaluationElementTitle: 'Element',
});
const evaluationRubricDimension = (educationOrganizationId: number) => ({
  programEvaluationElementReference: {
    ...evaluationKey(educationOrganizationId),
    programEvaluationElementTitle: 'Element',
  },
  evaluationRubricRating: 1,
  evaluationCriterionDescription: 'Criterion',
});
const course = (educationOrganizationId: number) => ({
  courseCode: 'ALG-1',
  courseTitle: 'Algebra I',
  numberOfParts: 1,
  educationOrganizationReference: { educationOrganizationId },
  identificationCodes: [
    {
      courseIdentificationSystemDescriptor: 'uri://ed-fi.org/CourseIdentificationSystemDescriptor#LEA course code',
      identificationCode: 'ALG-1',
    },
  ],
});
const chartOfAccount = (educationOrganizationId: number) => ({
  accountIdentifier: '1000',
  fiscalYear: 2022,
  accountTypeDescriptor: 'uri://ed-fi.org/AccountTypeDescriptor#Revenue',
  educationOrganizationReference: { educationOrganizationId },
});
const organizationDepartment = (organizationDepartmentId: number, parent: number) => ({
  organizationDepartmentId,
  nameOfInstitution: `Department ${organizationDepartmentId}`,
  categories: [
    { educationOrganizationCategoryDescriptor: 'uri://ed-fi.org/EducationOrganizationCategoryDescriptor#School' },
  ],
  parentEducationOrganizationReference: { educationOrganizationId: parent },
});
const studentProgramAssociation = (studentUniqueId: string, educationOrganizationId: number, owner: number) => ({
  beginDate: '2021-09-01',
  educationOrganizationReference: { educationOrganizationId },
  programReference: programReference(owner),
  studentReference: { studentUniqueId },
});
const disciplineAction = (identifier: string, studentUniqueId: string, schoolId: number) => ({
  disciplineActionIdentifier: identifier,
  disciplineDate: '2021-10-01',
  disciplines: [{ disciplineDescriptor: 'uri://ed-fi.org/DisciplineDescriptor#Community Service' }],
  responsibilitySchoolReference: { schoolId },
  studentReference: { studentUniqueId },
});

const NOT_AUTHORIZED = 'Access to the requested data could not be authorized.';

function denied(claim: number, properties: string[], hint?: string) {
  const target =
    properties.length === 1
      ? `the resource item's '${properties[0]}' value`
      : `one or more of the following properties of the resource item: ${properties.map((p) => `'${p}'`).join(', ')}`;
  return {
    type: 'urn:ed-fi:api:security:authorization',
    title: 'Authorization Denied',
    status: 403,
    detail: hint === undefined ? NOT_AUTHORIZED : `${NOT_AUTHORIZED} Hint: ${hint}`,
    errors: [
      `No relationships have been established between the caller's education organization id claim (${claim}) and ${target}.`,
    ],
    correlationId: expect.any(String),
  };
}

describeEachStore('authorization subjects as the ODS generates them', (stores) => {
  let edfi: EdFiTestServer;
  let district: DataClient;
  let otherDistrict: DataClient;
  let schoolClient: DataClient;
  let secondSchoolClient: DataClient;

  /** Items the LEA owns, by endpoint. */
  const ids = new Map<string, string>();
  const seed = (endpoint: string, document: object) => systemPost(edfi.store, edfi.registry, endpoint, document);

  beforeAll(async () => {
    edfi = await startEdFiServer({ store: await stores.newSpec(), enforceAuthorization: true });
    await seed('localEducationAgencies', localEducationAgency(LEA));
    await seed('localEducationAgencies', localEducationAgency(OTHER_LEA));
    await seed('schools', school(SCHOOL, LEA));
    await seed('schools', school(SECOND_SCHOOL, LEA));
    await seed('schools', school(OTHER_SCHOOL, OTHER_LEA));
    for (const id of ['S-1', 'S-2']) await seed('students', student(id));
    await seed('studentSchoolAssociations', enrollment('S-1', SCHOOL));
    await seed('studentSchoolAssociations', enrollment('S-1', SECOND_SCHOOL));
    await seed('studentSchoolAssociations', enrollment('S-2', SECOND_SCHOOL));
    ids.set('programs', await seed('programs', program(LEA)));
    ids.set('courses', await seed('courses', course(LEA)));
    ids.set('chartOfAccounts', await seed('chartOfAccounts', chartOfAccount(LEA)));
    district = await dataClient(edfi, 'District Hosted SIS Vendor', [LEA]);
    otherDistrict = await dataClient(edfi, 'SIS Vendor', [OTHER_LEA]);
    schoolClient = await dataClient(edfi, 'SIS Vendor', [SCHOOL]);
    secondSchoolClient = await dataClient(edfi, 'SIS Vendor', [SECOND_SCHOOL]);
  });

  afterAll(() => edfi.close());

  describe('claim sets as the ODS ships them: reference data read through the inverted hierarchy (2130)', () => {
    it.each(['courses', 'programs', 'chartOfAccounts'])(
      '%s owned by the LEA: a school client reads it by id',
      async (endpoint) => {
        const sandbox = await dataClient(edfi, 'Ed-Fi Sandbox', [SCHOOL]);
        const response = await sandbox.get(`${endpoint}/${ids.get(endpoint)}`);
        expect(response.status, response.body).toBe(200);
        expect((await sandbox.list(endpoint)).total).toBe(1);
      },
    );
  });

  describe('organizationDepartments: authorized on ParentEducationOrganizationId (ODS override)', () => {
    it('lets a district client create a department under its school', async () => {
      const response = await district.send('POST', 'organizationDepartments', organizationDepartment(9001, SCHOOL));
      expect(response.status, response.body).toBe(201);
    });

    it('refuses a parent outside the district, naming ParentEducationOrganizationId', async () => {
      const response = await district.send(
        'POST',
        'organizationDepartments',
        organizationDepartment(9002, OTHER_SCHOOL),
      );
      expect(response.status).toBe(403);
      expect(response.json()).toEqual(denied(LEA, ['ParentEducationOrganizationId']));
    });
  });

  describe('studentProgramAssociations: the role-named ProgramEducationOrganizationId is not a subject', () => {
    it('lets a school client enroll its student in an LEA-owned program', async () => {
      const response = await secondSchoolClient.send(
        'POST',
        'studentProgramAssociations',
        studentProgramAssociation('S-2', SECOND_SCHOOL, LEA),
      );
      expect(response.status, response.body).toBe(201);
    });

    it('lists only EducationOrganizationId and StudentUniqueId when refusing', async () => {
      const response = await schoolClient.send(
        'POST',
        'studentProgramAssociations',
        studentProgramAssociation('S-2', SECOND_SCHOOL, LEA),
      );
      expect(response.status).toBe(403);
      expect(response.json()).toEqual(
        denied(
          SCHOOL,
          ['EducationOrganizationId', 'StudentUniqueId'],
          "You may need to create a corresponding 'StudentSchoolAssociation' item.",
        ),
      );
    });
  });

  describe('program evaluations: authorized on ProgramEducationOrganizationId (ODS overrides)', () => {
    const chain: [string, object][] = [
      ['programEvaluations', programEvaluation(LEA)],
      ['programEvaluationObjectives', programEvaluationObjective(LEA)],
      ['programEvaluationElements', programEvaluationElement(LEA)],
      ['evaluationRubricDimensions', evaluationRubricDimension(LEA)],
    ];

    beforeAll(async () => {
      for (const [endpoint, document] of chain) await seed(endpoint, document);
    });

    it.each(chain.slice(1))(
      '%s: another district lists none of the LEA’s items; the LEA lists them',
      async (endpoint) => {
        expect((await otherDistrict.list(endpoint)).total).toBe(0);
        expect((await schoolClient.list(endpoint)).total).toBe(0);
        expect((await district.list(endpoint)).total).toBe(1);
      },
    );

    it.each(chain.slice(1))('%s: another district’s POST of the same item is 403', async (endpoint, document) => {
      const response = await otherDistrict.send('POST', endpoint, document);
      expect(response.status).toBe(403);
      expect(response.json()).toEqual(denied(OTHER_LEA, ['ProgramEducationOrganizationId']));
    });
    it('refuses another district a new objective under the LEA’s program before looking for its evaluation', async () => {
      const objective = programEvaluationObjective(LEA);
      const missing = { ...objective.programEvaluationReference, programEvaluationTitle: 'No such evaluation' };
      for (const body of [
        { ...objective, programEvaluationObjectiveTitle: 'Another objective' },
        { ...objective, programEvaluationReference: missing },
      ]) {
        const response = await otherDistrict.send('POST', 'programEvaluationObjectives', body);
        expect(response.status, response.body).toBe(403);
      }
    });
  });

  describe('disciplineActions: authorized on ResponsibilitySchoolId and the student (ODS override)', () => {
    let ownId: string;
    let otherId: string;

    beforeAll(async () => {
      ownId = await seed('disciplineActions', disciplineAction('DA-1', 'S-1', SCHOOL));
      otherId = await seed('disciplineActions', disciplineAction('DA-2', 'S-1', SECOND_SCHOOL));
    });

    it('a school client sees only its own school’s actions', async () => {
      const { items } = await schoolClient.list<{ id: string }>('disciplineActions');
      expect(items.map((item) => item.id)).toEqual([ownId]);
      expect((await schoolClient.get(`disciplineActions/${ownId}`)).status).toBe(200);
    });

    it('refuses another school’s action by id and its update, naming ResponsibilitySchoolId', async () => {
      const read = await schoolClient.get(`disciplineActions/${otherId}`);
      expect(read.status).toBe(403);
      expect(read.json()).toEqual(denied(SCHOOL, ['ResponsibilitySchoolId']));
      const update = await schoolClient.send(
        'PUT',
        `disciplineActions/${otherId}`,
        disciplineAction('DA-2', 'S-1', SECOND_SCHOOL),
      );
      expect(update.status).toBe(403);
    });
  });
});
