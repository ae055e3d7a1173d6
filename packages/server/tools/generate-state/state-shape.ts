// The shape of a synthetic state for a number of students: LEAs and schools of varying size (about 500 students a
// school, 10 schools an LEA), each school's students, staff and sections as contiguous index ranges, so any document
// is computed from its indexes without holding the state in memory.
import { seededNumber } from '../../src/testing/seeded-random.js';

export const STUDENTS_PER_SCHOOL = 500;
export const SCHOOLS_PER_LEA = 10;
export const STUDENTS_PER_STAFF = 15;
export const STUDENTS_PER_SECTION = 25;

export interface SchoolShape {
  readonly schoolId: number;
  readonly leaId: number;
  /** Index of the school's first student in the state; its students are the next `studentCount`. */
  readonly firstStudent: number;
  readonly studentCount: number;
  readonly firstStaff: number;
  readonly staffCount: number;
  /** Sections of each course offered in the school's fall session. */
  readonly sectionsPerCourse: number;
}

export interface StateShape {
  readonly seed: number;
  readonly students: number;
  readonly seaId: number;
  readonly leaIds: readonly number[];
  readonly schools: readonly SchoolShape[];
  readonly staff: number;
}

export const SEA_ID = 25;

export function leaIdOf(leaIndex: number): number {
  return 250_001 + leaIndex;
}

/** School sizes vary from 0.4 to 1.6 times the mean, as elementary and high schools do. */
function schoolWeights(seed: number, count: number): number[] {
  return Array.from({ length: count }, (_, index) => 0.4 + (seededNumber(seed, `school-size#${index}`) % 1201) / 1000);
}

function studentCounts(seed: number, students: number, schools: number): number[] {
  const weights = schoolWeights(seed, schools);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const counts = weights.map((weight) => Math.max(1, Math.floor((students * weight) / total)));
  const assigned = counts.reduce((sum, count) => sum + count, 0);
  counts[counts.length - 1] = (counts[counts.length - 1] ?? 0) + students - assigned;
  return counts;
}

export function stateShape(students: number, seed: number): StateShape {
  if (!Number.isInteger(students) || students < 1)
    throw new Error(`--students must be a whole number ≥ 1, not ${students}`);
  const schoolCount = Math.max(1, Math.round(students / STUDENTS_PER_SCHOOL));
  const counts = studentCounts(seed, students, schoolCount);
  const schools: SchoolShape[] = [];
  let firstStudent = 0;
  let firstStaff = 0;
  counts.forEach((studentCount, index) => {
    const leaIndex = Math.floor(index / SCHOOLS_PER_LEA);
    const staffCount = Math.ceil(studentCount / STUDENTS_PER_STAFF);
    schools.push({
      schoolId: leaIdOf(leaIndex) * 1000 + (index % SCHOOLS_PER_LEA) + 1,
      leaId: leaIdOf(leaIndex),
      firstStudent,
      studentCount,
      firstStaff,
      staffCount,
      sectionsPerCourse: Math.ceil(studentCount / STUDENTS_PER_SECTION),
    });
    firstStudent += studentCount;
    firstStaff += staffCount;
  });
  const leaCount = Math.ceil(schoolCount / SCHOOLS_PER_LEA);
  return {
    seed,
    students,
    seaId: SEA_ID,
    leaIds: Array.from({ length: leaCount }, (_, index) => leaIdOf(index)),
    schools,
    staff: firstStaff,
  };
}
