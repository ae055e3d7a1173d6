// HTTP helpers of the change-query tests: a section with enrolled students created through the API, and the ids the
// server answered.
import type { InjectResponse } from '@edfi-api/framework';
import { expect } from 'vitest';
import type { EdFiTestServer } from '../support/edfi-server.js';
import {
  classPeriod,
  course,
  courseOffering,
  location,
  school,
  section,
  session,
  student,
  studentSectionAssociation,
  algebraSection,
} from '../store/sample-documents.js';

export const SCHOOL_ID = 255901001;

export const algebra = algebraSection(SCHOOL_ID);

/** The id of a created or updated item, from its `Location`. */
export function idOf(response: InjectResponse): string {
  expect(response.status, response.body).toBeLessThan(300);
  return response.headers.location!.split('/').pop()!;
}

export interface SectionWithStudents {
  readonly session: string;
  readonly offering: string;
  readonly period: string;
  readonly room: string;
  readonly section: string;
  readonly enrolments: readonly string[];
}

/** A school with a session, course offering, class period, room and section, and students enrolled in the section. */
export async function postSectionWithStudents(
  app: EdFiTestServer,
  studentIds: readonly string[] = ['s1', 's2'],
): Promise<SectionWithStudents> {
  const post = async (endpoint: string, body: Record<string, unknown>) =>
    idOf(await app.data('POST', `/ed-fi/${endpoint}`, { body }));
  await post('schools', school(SCHOOL_ID));
  const sessionId = await post('sessions', session(SCHOOL_ID, 'Fall'));
  await post('courses', course('ALG-1', SCHOOL_ID));
  const offering = await post('courseOfferings', courseOffering(algebra));
  const period = await post('classPeriods', classPeriod('P1', SCHOOL_ID));
  const room = await post('locations', location('R101', SCHOOL_ID));
  const sectionId = await post('sections', section(algebra, { classPeriodNames: ['P1'], classroom: 'R101' }));
  const enrolments = [];
  for (const studentUniqueId of studentIds) {
    await post('students', student(studentUniqueId));
    enrolments.push(await post('studentSectionAssociations', studentSectionAssociation(studentUniqueId, algebra)));
  }
  return { session: sessionId, offering, period, room, section: sectionId, enrolments };
}
