import { it } from 'vitest';
import { startEdFiServer, BASE_PATH } from '../support/edfi-server.js';
import { localEducationAgency, school, student } from '../support/district-documents.js';

it('s5', async () => {
  const app = await startEdFiServer();
  const show = async (
    label: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const r = await app.data(method, path, {
      body: typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    });
    console.log(`## ${label}: ${r.status} ${r.body.slice(0, 600)}`);
    return r;
  };
  await show('lea', 'POST', '/ed-fi/localEducationAgencies', localEducationAgency(100));
  await show('school', 'POST', '/ed-fi/schools', school(1001, 100));
  await show('empty date', 'POST', '/ed-fi/students', { ...student('S1'), birthDate: '' });
  await show(
    'trailing comma',
    'POST',
    '/ed-fi/students',
    '{"studentUniqueId": "S2", "firstName": "x", "lastSurname": "y", "birthDate": "2010-01-01",}',
  );
  await show(
    'trailing comma arr',
    'POST',
    '/ed-fi/schools',
    '{"schoolId": 1002, "nameOfInstitution": "x", "localEducationAgencyReference": {"localEducationAgencyId": 100}, "educationOrganizationCategories": [{"educationOrganizationCategoryDescriptor": "uri://ed-fi.org/EducationOrganizationCategoryDescriptor#School"},], "gradeLevels": [{"gradeLevelDescriptor": "uri://ed-fi.org/GradeLevelDescriptor#Ninth grade",},],}',
  );
  await show(
    'malformed',
    'POST',
    '/ed-fi/students',
    '{"studentUniqueId": "S2", "firstName": "x", "lastSurname": "y", "birthDate": "2010-01-01", "personReference": {"personId": "1"',
  );
  await show('malformed2', 'POST', '/ed-fi/students', '{"studentUniqueId": "S2",, "firstName": "x"}');
  await show('descriptor echo', 'POST', '/ed-fi/students', {
    ...student('S3'),
    birthSexDescriptor: 'URI://ED-FI.ORG/SexDescriptor#female',
  });
  const s3 = await show('get', 'GET', '/ed-fi/students?studentUniqueId=S3');
  await show('partial ref', 'POST', '/ed-fi/studentSchoolAssociations', {
    studentReference: { studentUniqueId: 'S3' },
    schoolReference: {},
    entryDate: '2021-08-01',
    entryGradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade',
  });
  await show('partial ref2', 'POST', '/ed-fi/courseOfferings', {
    localCourseCode: 'X',
    courseReference: { courseCode: 'C' },
    schoolReference: { schoolId: 1001 },
    sessionReference: { schoolId: 1001, schoolYear: 2022, sessionName: 'S' },
  });
  await show('unified', 'POST', '/ed-fi/courseOfferings', {
    localCourseCode: 'X',
    courseReference: { courseCode: 'C', educationOrganizationId: 1001 },
    schoolReference: { schoolId: 2022 },
    sessionReference: { schoolId: 2019, schoolYear: 2022, sessionName: 'S' },
  });
  await show('put bad id no body', 'PUT', '/ed-fi/students/abc');
  await show('put bad id body', 'PUT', '/ed-fi/students/abc', student('S1'));
  await show('delete unknown res', 'DELETE', '/ed-fi/nothings/abc');
  await show('patch unknown res', 'PATCH', '/ed-fi/nothings');
  await show('put unknown ns', 'PUT', '/nope/students');
  await show('datetime slash', 'POST', '/ed-fi/studentSchoolAttendanceEvents', {});
  const r = await app.server.inject({ method: 'GET', url: `${BASE_PATH}/metadata/xsd` });
  console.log('## xsd', r.status, r.body.slice(0, 300));
  await show(
    'delete desc in use',
    'DELETE',
    `/ed-fi/educationOrganizationCategoryDescriptors/${(await app.data('GET', '/ed-fi/educationOrganizationCategoryDescriptors?codeValue=School')).json<{ id: string }[]>()[0]!.id}`,
  );
  void s3;
  await app.close();
});
