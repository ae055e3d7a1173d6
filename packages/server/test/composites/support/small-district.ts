// A district of two schools with one enrolled student each, written through the data API; their resource ids.
import { enrollment, localEducationAgency, school, student } from '../../support/district-documents.js';
import type { EdFiTestServer } from '../../support/edfi-server.js';

export interface DistrictIds {
  readonly schools: Readonly<Record<101 | 102, string>>;
  readonly students: Readonly<Record<'S1' | 'S2', string>>;
}

async function created(edfi: EdFiTestServer, endpoint: string, body: Record<string, unknown>): Promise<string> {
  const response = await edfi.data('POST', `/ed-fi/${endpoint}`, { body });
  if (response.status !== 201) throw new Error(`POST ${endpoint}: ${response.status} ${response.body}`);
  return String(response.headers.location).split('/').pop()!;
}

export async function district(edfi: EdFiTestServer): Promise<DistrictIds> {
  await created(edfi, 'localEducationAgencies', localEducationAgency(100));
  const schools = {
    101: await created(edfi, 'schools', school(101, 100)),
    102: await created(edfi, 'schools', school(102, 100)),
  };
  const students = {
    S1: await created(edfi, 'students', student('S1')),
    S2: await created(edfi, 'students', student('S2')),
  };
  await created(edfi, 'studentSchoolAssociations', enrollment('S1', 101));
  await created(edfi, 'studentSchoolAssociations', enrollment('S2', 102));
  return { schools, students };
}
