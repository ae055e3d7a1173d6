// The ODS SchoolYearType seed rows, parsed from the seed SQL's INSERT statements.
import type { SchoolYear, SchoolYearsFile } from '../../src/model/types.js';
import { MODEL_FORMAT_VERSION } from '../../src/model/types.js';

const INSERT_ROW =
  /INSERT INTO edfi\.SchoolYearType \(SchoolYear, SchoolYearDescription, CurrentSchoolYear\) VALUES \('(\d+)', '([^']*)', '(true|false)'\)/g;

export function buildSchoolYears(seedSql: string): SchoolYearsFile {
  const schoolYears: SchoolYear[] = [...seedSql.matchAll(INSERT_ROW)].map(([, year, description, current]) => ({
    schoolYear: Number(year),
    schoolYearDescription: description ?? '',
    currentSchoolYear: current === 'true',
  }));
  if (schoolYears.length === 0) throw new Error('No SchoolYearType rows in the seed SQL');
  schoolYears.sort((a, b) => a.schoolYear - b.schoolYear);
  return { formatVersion: MODEL_FORMAT_VERSION, schoolYears };
}
