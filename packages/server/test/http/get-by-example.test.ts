// GET by example with the ODS's parameters (issue 13 §4): inherited properties filter lists and partitions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollment, localEducationAgency, school, student } from '../support/district-documents.js';
import { startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';

describe('GET by example on inherited properties', () => {
  let app: EdFiTestServer;

  const ids = async (path: string) => {
    const response = await app.data('GET', path);
    expect(response.status, response.body).toBe(200);
    return response.json<{ schoolId?: number; id: string }[]>();
  };

  beforeAll(async () => {
    app = await startEdFiServer();
    const post = async (path: string, body: object) =>
      expect((await app.data('POST', path, { body })).status).toBe(201);
    await post('/ed-fi/localEducationAgencies', localEducationAgency(100));
    await post('/ed-fi/schools', { ...school(1001, 100), webSite: 'https://one.example' });
    await post('/ed-fi/schools', school(1002, 100));
    await post('/ed-fi/students', student('S-1'));
    await post('/ed-fi/studentSchoolAssociations', enrollment('S-1', 1001));
    await post('/ed-fi/programs', {
      educationOrganizationReference: { educationOrganizationId: 100 },
      programName: 'P',
      programTypeDescriptor: 'uri://ed-fi.org/ProgramTypeDescriptor#Athletics',
    });
    for (const [beginDate, endDate] of [
      ['2021-09-01', '2022-06-01'],
      ['2022-09-01', undefined],
    ])
      await post('/ed-fi/studentProgramAssociations', {
        beginDate,
        ...(endDate === undefined ? {} : { endDate }),
        educationOrganizationReference: { educationOrganizationId: 1001 },
        programReference: {
          educationOrganizationId: 100,
          programName: 'P',
          programTypeDescriptor: 'uri://ed-fi.org/ProgramTypeDescriptor#Athletics',
        },
        studentReference: { studentUniqueId: 'S-1' },
      });
  });

  afterAll(() => app.close());

  it('filters schools on the EducationOrganization members they inherit', async () => {
    expect(await ids('/ed-fi/schools?nameOfInstitution=non-existent')).toEqual([]);
    expect((await ids('/ed-fi/schools?nameOfInstitution=School%201002')).map((item) => item.schoolId)).toEqual([1002]);
    expect((await ids('/ed-fi/schools?webSite=https://one.example')).map((item) => item.schoolId)).toEqual([1001]);
    expect(await ids('/ed-fi/schools?shortNameOfInstitution=none')).toEqual([]);
    expect(
      await ids('/ed-fi/schools?operationalStatusDescriptor=uri://ed-fi.org/OperationalStatusDescriptor%23Active'),
    ).toEqual([]);
  });

  it('filters program associations on the GeneralStudentProgramAssociation members they inherit', async () => {
    const path = '/ed-fi/studentProgramAssociations';
    expect(await ids(`${path}?endDate=2022-06-01`)).toHaveLength(1);
    expect(await ids(`${path}?endDate=2030-01-01`)).toEqual([]);
    expect(await ids(`${path}?servedOutsideOfRegularSession=true`)).toEqual([]);
    expect(await ids(`${path}?reasonExitedDescriptor=uri://ed-fi.org/ReasonExitedDescriptor%23Other`)).toEqual([]);
  });

  it('binds an inherited parameter to its type', async () => {
    const response = await app.data('GET', '/ed-fi/studentProgramAssociations?endDate=not-a-date');
    expect(response.status).toBe(400);
  });

  it('applies them to /partitions too', async () => {
    const partitions = async (query: string) => {
      const response = await app.data('GET', `/ed-fi/schools/partitions?number=2${query}`);
      expect(response.status, response.body).toBe(200);
      return response.json<{ pageTokens: string[] }>().pageTokens;
    };
    expect(await partitions('&nameOfInstitution=non-existent')).toEqual([]);
    expect(await partitions('&nameOfInstitution=School%201001')).toHaveLength(1);
  });
});
