// The documents of a synthetic state, in groups a writer sends one after another (each group references only earlier
// ones). Every document is computed from its indexes and the seed: the same seed gives the same documents, and a
// group's count is known before any document is made (for the progress bar).
import type { ModelRegistry } from '../../src/model/index.js';
import type { JsonObject } from '../../src/model/validation/index.js';
import { seededNumber } from '../../src/testing/seeded-random.js';
import type { SchoolShape, StateShape } from './state-shape.js';
import { descriptorUris, isoDate, personName, pick, uniqueIdOf, weekdays, type DescriptorUri } from './state-values.js';

export const SCHOOL_ATTENDANCE_PER_STUDENT = 10;
export const SECTION_ATTENDANCE_PER_STUDENT = 10;
export const ASSESSMENTS_PER_STUDENT = 2;

const SCHOOL_YEAR = 2026;
const FALL = { name: '2025-2026 Fall Semester', term: 'Fall Semester', begin: '2025-08-18', end: '2025-12-19' };
const SPRING = { name: '2025-2026 Spring Semester', term: 'Spring Semester', begin: '2026-01-06', end: '2026-05-29' };
const FALL_DAYS = weekdays(FALL.begin, FALL.end);
const GRADING_PERIOD = { descriptor: 'First Semester', name: 'Fall 2025' };
const COURSES = [
  { code: 'ALG-1', title: 'Algebra I', subject: 'Mathematics' },
  { code: 'ELA-1', title: 'English Language Arts I', subject: 'English Language Arts' },
  { code: 'BIO-1', title: 'Biology', subject: 'Life and Physical Sciences' },
  { code: 'HIS-1', title: 'World History', subject: 'Social Sciences and History' },
] as const;
const ASSESSMENTS = [
  { id: 'STATE-MATH', title: 'State Mathematics Assessment', subject: 'Mathematics' },
  { id: 'STATE-READ', title: 'State Reading Assessment', subject: 'Reading' },
  { id: 'STATE-SCI', title: 'State Science Assessment', subject: 'Science' },
] as const;
const ASSESSMENT_NAMESPACE = 'uri://state.example.org/Assessment';
const GRADE_LEVELS = ['Ninth grade', 'Tenth grade', 'Eleventh grade', 'Twelfth grade'] as const;
/** Most attendance events are absences; weights sum to 10. */
const ATTENDANCE_CATEGORIES = [
  ...Array<string>(4).fill('Excused Absence'),
  ...Array<string>(3).fill('Unexcused Absence'),
  ...Array<string>(2).fill('Tardy'),
  'Early departure',
];
const LETTER_GRADES = ['A', 'B', 'B', 'C', 'C', 'D', 'F'];

/** One resource's documents within a group. */
export interface DocumentStream {
  readonly endpoint: string;
  readonly count: number;
  documents(): Iterable<JsonObject>;
}

export type DocumentGroup = readonly DocumentStream[];

interface Context {
  readonly shape: StateShape;
  readonly seed: number;
  readonly salt: number;
  readonly uri: DescriptorUri;
}

/** A student's place: the state-wide index, the school, and the index within it. */
interface Enrolled {
  readonly index: number;
  readonly local: number;
  readonly school: SchoolShape;
}

function* enrolledStudents(shape: StateShape): Iterable<Enrolled> {
  for (const school of shape.schools)
    for (let local = 0; local < school.studentCount; local++)
      yield { index: school.firstStudent + local, local, school };
}

const studentIdOf = (context: Context, index: number) => uniqueIdOf('', index, context.salt);
const staffIdOf = (context: Context, index: number) => uniqueIdOf('E', index, context.salt);
const contactIdOf = (context: Context, index: number) => uniqueIdOf('C', index, context.salt);
const sectionIdOf = (school: SchoolShape, course: number, section: number) =>
  `${school.schoolId}-${COURSES[course]?.code}-${String(section + 1).padStart(2, '0')}`;

function sessionReference(school: SchoolShape) {
  return { schoolId: school.schoolId, schoolYear: SCHOOL_YEAR, sessionName: FALL.name };
}

/** The section a student attends for a course: students spread over the course's sections, differently per course. */
function sectionOf(student: Enrolled, course: number): number {
  return (student.local + course * 7) % student.school.sectionsPerCourse;
}

function sectionReference(school: SchoolShape, course: number, section: number) {
  return {
    localCourseCode: COURSES[course]?.code ?? '',
    schoolId: school.schoolId,
    schoolYear: SCHOOL_YEAR,
    sessionName: FALL.name,
    sectionIdentifier: sectionIdOf(school, course, section),
  };
}

function stream(endpoint: string, count: number, documents: () => Iterable<JsonObject>): DocumentStream {
  return { endpoint, count, documents };
}

function* perSchool<T>(shape: StateShape, make: (school: SchoolShape) => Iterable<T>): Iterable<T> {
  for (const school of shape.schools) yield* make(school);
}

function educationOrganizations(context: Context): DocumentGroup[] {
  const { shape, uri } = context;
  const category = (code: string) => [
    { educationOrganizationCategoryDescriptor: uri('EducationOrganizationCategoryDescriptor', code) },
  ];
  const sea = stream('stateEducationAgencies', 1, () => [
    {
      stateEducationAgencyId: shape.seaId,
      nameOfInstitution: 'State Department of Education',
      categories: category('State Education Agency'),
    },
  ]);
  const leas = stream('localEducationAgencies', shape.leaIds.length, () =>
    shape.leaIds.map((leaId, index) => ({
      localEducationAgencyId: leaId,
      nameOfInstitution: `District ${index + 1}`,
      categories: category('Local Education Agency'),
      localEducationAgencyCategoryDescriptor: uri(
        'LocalEducationAgencyCategoryDescriptor',
        'Regular public school district',
      ),
      stateEducationAgencyReference: { stateEducationAgencyId: shape.seaId },
    })),
  );
  const schools = stream('schools', shape.schools.length, () =>
    shape.schools.map((school) => ({
      schoolId: school.schoolId,
      nameOfInstitution: `School ${school.schoolId}`,
      educationOrganizationCategories: category('School'),
      gradeLevels: GRADE_LEVELS.map((level) => ({ gradeLevelDescriptor: uri('GradeLevelDescriptor', level) })),
      localEducationAgencyReference: { localEducationAgencyId: school.leaId },
    })),
  );
  return [[sea], [leas], [schools]];
}

function schoolCalendar(context: Context): DocumentStream[] {
  const { shape, uri } = context;
  const schools = shape.schools.length;
  return [
    stream('sessions', schools * 2, () =>
      perSchool(shape, (school) =>
        [FALL, SPRING].map((session) => ({
          schoolReference: { schoolId: school.schoolId },
          schoolYearTypeReference: { schoolYear: SCHOOL_YEAR },
          sessionName: session.name,
          termDescriptor: uri('TermDescriptor', session.term),
          beginDate: session.begin,
          endDate: session.end,
          totalInstructionalDays: weekdays(session.begin, session.end).length,
        })),
      ),
    ),
    stream('gradingPeriods', schools, () =>
      perSchool(shape, (school) => [
        {
          schoolReference: { schoolId: school.schoolId },
          schoolYearTypeReference: { schoolYear: SCHOOL_YEAR },
          gradingPeriodDescriptor: uri('GradingPeriodDescriptor', GRADING_PERIOD.descriptor),
          gradingPeriodName: GRADING_PERIOD.name,
          beginDate: FALL.begin,
          endDate: FALL.end,
          totalInstructionalDays: FALL_DAYS.length,
        },
      ]),
    ),
    stream('courses', shape.leaIds.length * COURSES.length, () =>
      shape.leaIds.flatMap((leaId) =>
        COURSES.map((course) => ({
          courseCode: course.code,
          educationOrganizationReference: { educationOrganizationId: leaId },
          courseTitle: course.title,
          numberOfParts: 1,
          academicSubjects: [{ academicSubjectDescriptor: uri('AcademicSubjectDescriptor', course.subject) }],
          identificationCodes: [
            {
              courseIdentificationSystemDescriptor: uri('CourseIdentificationSystemDescriptor', 'LEA course code'),
              identificationCode: course.code,
            },
          ],
        })),
      ),
    ),
    stream('assessments', ASSESSMENTS.length, () =>
      ASSESSMENTS.map((assessment) => ({
        assessmentIdentifier: assessment.id,
        namespace: ASSESSMENT_NAMESPACE,
        assessmentTitle: assessment.title,
        academicSubjects: [{ academicSubjectDescriptor: uri('AcademicSubjectDescriptor', assessment.subject) }],
      })),
    ),
  ];
}

function people(context: Context): DocumentStream[] {
  const { shape, seed, uri } = context;
  return [
    stream('students', shape.students, function* () {
      for (const student of enrolledStudents(shape)) {
        const grade = student.local % GRADE_LEVELS.length;
        yield {
          studentUniqueId: studentIdOf(context, student.index),
          ...personName(seed, `student#${student.index}`),
          birthDate: isoDate(2011 - grade, seededNumber(seed, `birth#${student.index}`) % 365),
          birthSexDescriptor: uri('SexDescriptor', pick(['Female', 'Male'], seed, `sex#${student.index}`)),
        };
      }
    }),
    stream('contacts', shape.students, function* () {
      for (let index = 0; index < shape.students; index++)
        yield { contactUniqueId: contactIdOf(context, index), ...personName(seed, `contact#${index}`) };
    }),
    stream('staffs', shape.staff, function* () {
      for (let index = 0; index < shape.staff; index++)
        yield { staffUniqueId: staffIdOf(context, index), ...personName(seed, `staff#${index}`) };
    }),
  ];
}

function* staffOf(shape: StateShape): Iterable<{ index: number; school: SchoolShape }> {
  for (const school of shape.schools)
    for (let local = 0; local < school.staffCount; local++) yield { index: school.firstStaff + local, school };
}

function enrollments(context: Context): DocumentStream[] {
  const { shape, seed, uri } = context;
  const schools = shape.schools.length;
  return [
    stream('courseOfferings', schools * COURSES.length, () =>
      perSchool(shape, (school) =>
        COURSES.map((course) => ({
          localCourseCode: course.code,
          schoolReference: { schoolId: school.schoolId },
          sessionReference: sessionReference(school),
          courseReference: { courseCode: course.code, educationOrganizationId: school.leaId },
          localCourseTitle: course.title,
        })),
      ),
    ),
    stream('studentSchoolAssociations', shape.students, function* () {
      for (const student of enrolledStudents(shape))
        yield {
          studentReference: { studentUniqueId: studentIdOf(context, student.index) },
          schoolReference: { schoolId: student.school.schoolId },
          entryDate: FALL.begin,
          entryGradeLevelDescriptor: uri(
            'GradeLevelDescriptor',
            GRADE_LEVELS[student.local % GRADE_LEVELS.length] ?? '',
          ),
          entryTypeDescriptor: uri('EntryTypeDescriptor', 'Next year school'),
          primarySchool: true,
        };
    }),
    stream('studentContactAssociations', shape.students, function* () {
      for (let index = 0; index < shape.students; index++)
        yield {
          studentReference: { studentUniqueId: studentIdOf(context, index) },
          contactReference: { contactUniqueId: contactIdOf(context, index) },
          relationDescriptor: uri('RelationDescriptor', pick(['Mother', 'Father'], seed, `relation#${index}`)),
          primaryContactStatus: true,
          livesWith: true,
        };
    }),
    stream('staffSchoolAssociations', shape.staff, function* () {
      for (const staff of staffOf(shape))
        yield {
          staffReference: { staffUniqueId: staffIdOf(context, staff.index) },
          schoolReference: { schoolId: staff.school.schoolId },
          programAssignmentDescriptor: uri('ProgramAssignmentDescriptor', 'Regular Education'),
        };
    }),
    stream('staffEducationOrganizationAssignmentAssociations', shape.staff, function* () {
      for (const staff of staffOf(shape))
        yield {
          staffReference: { staffUniqueId: staffIdOf(context, staff.index) },
          educationOrganizationReference: { educationOrganizationId: staff.school.schoolId },
          staffClassificationDescriptor: uri('StaffClassificationDescriptor', 'Teacher'),
          beginDate: FALL.begin,
        };
    }),
    stream('studentAssessments', shape.students * ASSESSMENTS_PER_STUDENT, function* () {
      for (let index = 0; index < shape.students; index++) {
        const studentUniqueId = studentIdOf(context, index);
        for (let taken = 0; taken < ASSESSMENTS_PER_STUDENT; taken++) {
          const assessment = ASSESSMENTS[(index + taken) % ASSESSMENTS.length];
          yield {
            studentAssessmentIdentifier: `${studentUniqueId}-${assessment?.id}`,
            assessmentReference: { assessmentIdentifier: assessment?.id ?? '', namespace: ASSESSMENT_NAMESPACE },
            studentReference: { studentUniqueId },
            administrationDate: `${pick(FALL_DAYS, seed, `administered#${index}#${taken}`)}T09:00:00Z`,
            scoreResults: [
              {
                assessmentReportingMethodDescriptor: uri('AssessmentReportingMethodDescriptor', 'Scale score'),
                resultDatatypeTypeDescriptor: uri('ResultDatatypeTypeDescriptor', 'Integer'),
                result: String(200 + (seededNumber(seed, `score#${index}#${taken}`) % 400)),
              },
            ],
          };
        }
      }
    }),
  ];
}

function sections(context: Context): DocumentStream[] {
  const { shape } = context;
  const count = shape.schools.reduce((sum, school) => sum + school.sectionsPerCourse * COURSES.length, 0);
  return [
    stream('sections', count, () =>
      perSchool(shape, function* (school) {
        for (let course = 0; course < COURSES.length; course++)
          for (let section = 0; section < school.sectionsPerCourse; section++)
            yield {
              sectionIdentifier: sectionIdOf(school, course, section),
              courseOfferingReference: {
                localCourseCode: COURSES[course]?.code ?? '',
                schoolId: school.schoolId,
                schoolYear: SCHOOL_YEAR,
                sessionName: FALL.name,
              },
              sequenceOfCourse: 1,
            };
      }),
    ),
  ];
}

/** Distinct fall school days for a student's events: one in each stride of the calendar. */
function eventDays(seed: number, key: string, count: number): string[] {
  const stride = Math.floor(FALL_DAYS.length / count);
  return Array.from(
    { length: count },
    (_, event) => FALL_DAYS[event * stride + (seededNumber(seed, `${key}#${event}`) % stride)] ?? '',
  );
}

function classroom(context: Context): DocumentStream[] {
  const { shape, seed, uri } = context;
  const sectionCount = shape.schools.reduce((sum, school) => sum + school.sectionsPerCourse * COURSES.length, 0);
  const category = (key: string) => uri('AttendanceEventCategoryDescriptor', pick(ATTENDANCE_CATEGORIES, seed, key));
  return [
    stream('studentSectionAssociations', shape.students * COURSES.length, function* () {
      for (const student of enrolledStudents(shape))
        for (let course = 0; course < COURSES.length; course++)
          yield {
            studentReference: { studentUniqueId: studentIdOf(context, student.index) },
            sectionReference: sectionReference(student.school, course, sectionOf(student, course)),
            beginDate: FALL.begin,
            endDate: FALL.end,
          };
    }),
    stream('staffSectionAssociations', sectionCount, () =>
      perSchool(shape, function* (school) {
        for (let course = 0; course < COURSES.length; course++)
          for (let section = 0; section < school.sectionsPerCourse; section++) {
            const teacher = school.firstStaff + ((course * school.sectionsPerCourse + section) % school.staffCount);
            yield {
              staffReference: { staffUniqueId: staffIdOf(context, teacher) },
              sectionReference: sectionReference(school, course, section),
              beginDate: FALL.begin,
              classroomPositionDescriptor: uri('ClassroomPositionDescriptor', 'Teacher of Record'),
            };
          }
      }),
    ),
    stream('studentSchoolAttendanceEvents', shape.students * SCHOOL_ATTENDANCE_PER_STUDENT, function* () {
      for (const student of enrolledStudents(shape)) {
        const days = eventDays(seed, `school-day#${student.index}`, SCHOOL_ATTENDANCE_PER_STUDENT);
        for (const [event, eventDate] of days.entries())
          yield {
            studentReference: { studentUniqueId: studentIdOf(context, student.index) },
            schoolReference: { schoolId: student.school.schoolId },
            sessionReference: sessionReference(student.school),
            eventDate,
            attendanceEventCategoryDescriptor: category(`school-event#${student.index}#${event}`),
          };
      }
    }),
  ];
}

function results(context: Context): DocumentStream[] {
  const { shape, seed, uri } = context;
  return [
    stream('studentSectionAttendanceEvents', shape.students * SECTION_ATTENDANCE_PER_STUDENT, function* () {
      for (const student of enrolledStudents(shape)) {
        const days = eventDays(seed, `section-day#${student.index}`, SECTION_ATTENDANCE_PER_STUDENT);
        for (const [event, eventDate] of days.entries()) {
          const course = event % COURSES.length;
          yield {
            studentReference: { studentUniqueId: studentIdOf(context, student.index) },
            sectionReference: sectionReference(student.school, course, sectionOf(student, course)),
            eventDate,
            attendanceEventCategoryDescriptor: uri(
              'AttendanceEventCategoryDescriptor',
              pick(ATTENDANCE_CATEGORIES, seed, `section-event#${student.index}#${event}`),
            ),
          };
        }
      }
    }),
    stream('grades', shape.students * COURSES.length, function* () {
      for (const student of enrolledStudents(shape))
        for (let course = 0; course < COURSES.length; course++) {
          const score = 55 + (seededNumber(seed, `grade#${student.index}#${course}`) % 46);
          yield {
            studentSectionAssociationReference: {
              ...sectionReference(student.school, course, sectionOf(student, course)),
              studentUniqueId: studentIdOf(context, student.index),
              beginDate: FALL.begin,
            },
            gradingPeriodReference: {
              gradingPeriodDescriptor: uri('GradingPeriodDescriptor', GRADING_PERIOD.descriptor),
              gradingPeriodName: GRADING_PERIOD.name,
              schoolId: student.school.schoolId,
              schoolYear: SCHOOL_YEAR,
            },
            gradeTypeDescriptor: uri('GradeTypeDescriptor', 'Grading Period'),
            letterGradeEarned: LETTER_GRADES[Math.min(LETTER_GRADES.length - 1, Math.floor((100 - score) / 7))] ?? 'F',
            numericGradeEarned: score,
          };
        }
    }),
  ];
}

/** The state's documents in dependency groups. */
export function stateDocumentGroups(shape: StateShape, registry: ModelRegistry): DocumentGroup[] {
  const context: Context = {
    shape,
    seed: shape.seed,
    salt: seededNumber(shape.seed, 'identifiers'),
    uri: descriptorUris(registry),
  };
  return [
    ...educationOrganizations(context),
    [...schoolCalendar(context), ...people(context)],
    enrollments(context),
    sections(context),
    classroom(context),
    results(context),
  ];
}

export function documentCount(groups: readonly DocumentGroup[]): number {
  return groups.flat().reduce((sum, documents) => sum + documents.count, 0);
}
