// The securables index of a table whose rows relate a person to an education organization (attendance, enrolments,
// grades): the person first, then the ed-orgs. A count of what a relationship-scoped client may read walks the people
// it relates to through this index and tests the ed-orgs in the same entries, never reading a row (access-sql.ts,
// the 'population' form); a filter or probe by the person uses it as it used the person's own index, which it replaces.
import type { TableLayout, TypedColumn } from './table-layout.js';

export const SECURABLES_INDEX_SUFFIX = 'securables';

function columnAt(layout: TableLayout, path: string): TypedColumn | undefined {
  return layout.columns.find((column) => column.path === path);
}

/** The securables index's columns, in index order; none when the table does not relate a person to an ed-org. */
export function securablesIndexColumns(layout: TableLayout): readonly TypedColumn[] {
  if (layout.shared) return [];
  const elements = layout.resource.securableElements;
  const personPath = [...elements.students, ...elements.staffs, ...elements.contacts][0];
  const person = personPath === undefined ? undefined : columnAt(layout, personPath);
  const edOrgs = elements.educationOrganizations.flatMap((element) => columnAt(layout, element.path) ?? []);
  return person === undefined || edOrgs.length === 0 ? [] : [person, ...edOrgs.filter((edOrg) => edOrg !== person)];
}

/** The columns indexed alone: the indexed ones, but for the person leading the securables index. */
export function singleColumnIndexes(layout: TableLayout): readonly TypedColumn[] {
  const leading = securablesIndexColumns(layout)[0];
  return layout.columns.filter((column) => column.indexed && column !== leading);
}
