// Component and operation names in the ODS style: `edFi_academicWeek`, `tpdm_candidateReference`, `getAcademicWeeks`.
import type { ProjectNamespace } from '../../../model/index.js';

/** `ed-fi` is spelled `edFi`; an extension's prefix is its namespace (`tpdm`, `sample`). */
export function schemaPrefix(namespace: ProjectNamespace): string {
  return namespace === 'ed-fi' ? 'edFi' : namespace;
}

/**
 * The ODS camel-casing rule: only the leading run of capitals is lowered, keeping the last one when a lower-case letter
 * follows (`CTEProgramService` → `cteProgramService`, `IDEAPart` → `ideaPart`, `School` → `school`).
 */
export function odsCamelCase(name: string): string {
  const run = /^[A-Z]+/.exec(name)?.[0].length ?? 0;
  if (run === 0) return name;
  const lowered = run > 1 && run < name.length ? run - 1 : run;
  return name.slice(0, lowered).toLowerCase() + name.slice(lowered);
}

export function pascalCase(name: string): string {
  const bare = name.replace(/^_+/, '');
  return bare.charAt(0).toUpperCase() + bare.slice(1);
}
