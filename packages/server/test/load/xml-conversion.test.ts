import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertFiles, interchangeXml, temporaryFolder } from './support/convert-files.js';

async function convert(interchange: string, body: string) {
  const folder = temporaryFolder({ 'input.xml': interchangeXml(interchange, body) });
  return convertFiles([path.join(folder, 'input.xml')]);
}

const SCHOOL_REFERENCE =
  '<SchoolReference><SchoolIdentity><SchoolId>255901001</SchoolId></SchoolIdentity></SchoolReference>';

describe('interchange XML to API JSON', () => {
  it('maps names, inline commons, collections of descriptors and school years', async () => {
    const { records } = await convert(
      'InterchangeStudent',
      `<Student>
        <StudentUniqueId> 604821 </StudentUniqueId>
        <Name><FirstName>Tyrone</FirstName><LastSurname>Dyer</LastSurname></Name>
        <BirthData><BirthDate>2014-11-13</BirthDate></BirthData>
        <Citizenship><Visa>uri://ed-fi.org/VisaDescriptor#A</Visa><Visa>uri://ed-fi.org/VisaDescriptor#B</Visa></Citizenship>
      </Student>`,
    );
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ line: 3, problems: [] });
    expect(records[0]!.document).toEqual({
      studentUniqueId: '604821',
      firstName: 'Tyrone',
      lastSurname: 'Dyer',
      birthDate: '2014-11-13',
      visas: [
        { visaDescriptor: 'uri://ed-fi.org/VisaDescriptor#A' },
        { visaDescriptor: 'uri://ed-fi.org/VisaDescriptor#B' },
      ],
    });
  });

  it('flattens nested reference identities into reference fields, with school years as end years', async () => {
    const { records } = await convert(
      'InterchangeMasterSchedule',
      `<CourseOffering>
        <LocalCourseCode>ALG-1</LocalCourseCode>
        ${SCHOOL_REFERENCE}
        <SessionReference><SessionIdentity>
          <SessionName>2021-2022 Fall Semester</SessionName><SchoolYear>2021-2022</SchoolYear>${SCHOOL_REFERENCE}
        </SessionIdentity></SessionReference>
        <CourseReference><CourseIdentity><CourseCode>ALG-1</CourseCode>
          <EducationOrganizationReference><EducationOrganizationIdentity><EducationOrganizationId>255901</EducationOrganizationId></EducationOrganizationIdentity></EducationOrganizationReference>
        </CourseIdentity></CourseReference>
      </CourseOffering>`,
    );
    expect(records[0]!.document).toEqual({
      localCourseCode: 'ALG-1',
      schoolReference: { schoolId: 255901001 },
      sessionReference: { sessionName: '2021-2022 Fall Semester', schoolYear: 2022, schoolId: 255901001 },
      courseReference: { courseCode: 'ALG-1', educationOrganizationId: 255901 },
    });
  });

  it('fills ref="…" references from the element with that XML id, even when it comes later in the file', async () => {
    const { records } = await convert(
      'InterchangeEducationOrganization',
      `<LocalEducationAgency id="LEA_1">
        <NameOfInstitution>Grand Bend ISD</NameOfInstitution>
        <EducationOrganizationCategory>uri://ed-fi.org/EducationOrganizationCategoryDescriptor#LEA</EducationOrganizationCategory>
        <LocalEducationAgencyId>255901</LocalEducationAgencyId>
        <LocalEducationAgencyCategory>uri://ed-fi.org/LocalEducationAgencyCategoryDescriptor#Independent</LocalEducationAgencyCategory>
        <EducationServiceCenterReference ref="ESC_1"/>
      </LocalEducationAgency>
      <EducationServiceCenter id="ESC_1">
        <NameOfInstitution>Region 99</NameOfInstitution>
        <EducationOrganizationCategory>uri://ed-fi.org/EducationOrganizationCategoryDescriptor#ESC</EducationOrganizationCategory>
        <EducationServiceCenterId>255950</EducationServiceCenterId>
      </EducationServiceCenter>
      <ClassPeriod><ClassPeriodName>01</ClassPeriodName><SchoolReference ref="LEA_1"/></ClassPeriod>`,
    );
    const byResource = Object.fromEntries(records.map((record) => [record.resource.endpoint, record]));
    expect(byResource.localEducationAgencies!.document.educationServiceCenterReference).toEqual({
      educationServiceCenterId: 255950,
    });
    // An id naming an element of another type still supplies what matches: here nothing (a LEA has no schoolId).
    expect(byResource.classPeriods!.document.schoolReference).toEqual({});
  });

  it('reports a ref that names no element', async () => {
    const { records } = await convert(
      'InterchangeEducationOrgCalendar',
      `<Calendar><CalendarCode>C1</CalendarCode>${SCHOOL_REFERENCE}<SchoolYear>2021-2022</SchoolYear>
        <CalendarType>uri://ed-fi.org/CalendarTypeDescriptor#Student Specific</CalendarType>
        <GradeLevel>uri://ed-fi.org/GradeLevelDescriptor#First grade</GradeLevel></Calendar>
      <Session><SessionName>S</SessionName><SchoolYear>2021-2022</SchoolYear><GradingPeriodReference ref="MISSING"/></Session>`,
    );
    const session = records.find((record) => record.resource.endpoint === 'sessions')!;
    expect(session.problems).toEqual([
      "Session/GradingPeriodReference: ref 'MISSING' names no element with that id in this file",
    ]);
    expect(records.find((record) => record.resource.endpoint === 'calendars')!.document).toEqual({
      calendarCode: 'C1',
      schoolReference: { schoolId: 255901001 },
      schoolYearTypeReference: { schoolYear: 2022 },
      calendarTypeDescriptor: 'uri://ed-fi.org/CalendarTypeDescriptor#Student Specific',
      gradeLevels: [{ gradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#First grade' }],
    });
  });

  it('prefixes the members of role-named inline commons (Credits) and puts TPDM extension elements under _ext', async () => {
    const { records } = await convert(
      'InterchangeEducationOrganization',
      `<Course><CourseCode>ALG-1</CourseCode>
        <MinimumAvailableCredits><Credits>1.5</Credits><CreditType>uri://ed-fi.org/CreditTypeDescriptor#Semester hour credit</CreditType></MinimumAvailableCredits>
      </Course>
      <School><SchoolId>1</SchoolId>
        <PostSecondaryInstitutionReference><PostSecondaryInstitutionIdentity><PostSecondaryInstitutionId>7</PostSecondaryInstitutionId></PostSecondaryInstitutionIdentity></PostSecondaryInstitutionReference>
      </School>`,
    );
    const byResource = Object.fromEntries(records.map((record) => [record.resource.endpoint, record.document]));
    expect(byResource.courses).toEqual({
      courseCode: 'ALG-1',
      minimumAvailableCredits: 1.5,
      minimumAvailableCreditTypeDescriptor: 'uri://ed-fi.org/CreditTypeDescriptor#Semester hour credit',
    });
    expect(byResource.schools).toEqual({
      schoolId: 1,
      _ext: { tpdm: { postSecondaryInstitutionReference: { postSecondaryInstitutionId: 7 } } },
    });
  });

  it('reports values that do not convert, unknown elements, look-up references and conflicting unified keys', async () => {
    const { records } = await convert(
      'InterchangeMasterSchedule',
      `<CourseOffering>
        <LocalCourseCode>ALG-1</LocalCourseCode>
        <InstructionalTimePlanned>many</InstructionalTimePlanned>
        <Colour>blue</Colour>
        <SchoolReference><SchoolLookup><SchoolId>1</SchoolId></SchoolLookup></SchoolReference>
        <SessionReference><SessionIdentity><SchoolYear>2022</SchoolYear>${SCHOOL_REFERENCE}</SessionIdentity></SessionReference>
        <CourseReference><CourseIdentity><CourseCode>X</CourseCode></CourseIdentity></CourseReference>
      </CourseOffering>
      <BellSchedule><BellScheduleName>B</BellScheduleName>
        <ClassPeriodReference><ClassPeriodIdentity><ClassPeriodName>1</ClassPeriodName>${SCHOOL_REFERENCE}</ClassPeriodIdentity></ClassPeriodReference>
        <SchoolReference><SchoolIdentity><SchoolId>2</SchoolId></SchoolIdentity></SchoolReference>
      </BellSchedule>`,
    );
    const offering = records.find((record) => record.resource.endpoint === 'courseOfferings')!;
    expect(offering.problems).toEqual([
      "CourseOffering/InstructionalTimePlanned: 'many' is not an integer",
      'CourseOffering/Colour: not an element of the Ed-Fi interchange schema here',
      expect.stringMatching(/^CourseOffering\/SchoolReference\/SchoolLookup: look-up references/),
    ]);
    expect(offering.document.sessionReference).toEqual({ schoolYear: 2022, schoolId: 255901001 });
    // Class periods and the bell schedule's school share schoolId only through key unification, checked by the API.
    expect(records.find((record) => record.resource.endpoint === 'bellSchedules')!.problems).toEqual([]);
  });

  it('turns a bare descriptor code value into a URI in the namespace of the default values', async () => {
    const { records } = await convert(
      'InterchangeEducationOrgCalendar',
      `<Session><SessionName>S</SessionName><Term>Fall Semester</Term>
        <GradingPeriodReference><GradingPeriodIdentity><GradingPeriod>uri://district.org/GradingPeriodDescriptor#P1</GradingPeriod></GradingPeriodIdentity></GradingPeriodReference>
      </Session>
      <StudentSchoolAttendanceEvent><AttendanceEvent><AttendanceEventCategory>Tardy</AttendanceEventCategory></AttendanceEvent></StudentSchoolAttendanceEvent>`,
    );
    expect(records.map((record) => record.document)).toEqual([
      {
        sessionName: 'S',
        termDescriptor: 'uri://ed-fi.org/TermDescriptor#Fall Semester',
        gradingPeriods: [
          { gradingPeriodReference: { gradingPeriodDescriptor: 'uri://district.org/GradingPeriodDescriptor#P1' } },
        ],
      },
      { attendanceEventCategoryDescriptor: 'uri://ed-fi.org/AttendanceEventCategoryDescriptor#Tardy' },
    ]);
  });

  it('sets every reference field a unified identity value feeds (report card grades)', async () => {
    const { records } = await convert(
      'InterchangeStudentGrade',
      `<ReportCard>
        <GradeReference><GradeIdentity>
          <GradingPeriodReference><GradingPeriodIdentity><GradingPeriod>uri://ed-fi.org/GradingPeriodDescriptor#First Six Weeks</GradingPeriod><GradingPeriodName>1</GradingPeriodName><SchoolYear>2021-2022</SchoolYear>${SCHOOL_REFERENCE}</GradingPeriodIdentity></GradingPeriodReference>
        </GradeIdentity></GradeReference>
      </ReportCard>`,
    );
    expect(records[0]!.document.grades).toEqual([
      {
        gradeReference: {
          gradingPeriodDescriptor: 'uri://ed-fi.org/GradingPeriodDescriptor#First Six Weeks',
          gradingPeriodName: '1',
          gradingPeriodSchoolYear: 2022,
          schoolId: 255901001,
        },
      },
    ]);
  });
});
