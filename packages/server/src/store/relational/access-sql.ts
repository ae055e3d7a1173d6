// Authorization as SQL (storage design §3.6): whether a value is related to the caller's ed-orgs, through the closure
// and EXISTS over the association tables at query time, and the predicates that keep a row only when it is authorized.
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import type { AccessFilter, RelationshipRule, SubjectRelation } from '../store.js';
import type { ResourceTables } from './resource-tables.js';
import { DOCUMENT_OWNER_TABLE, EDORG_CLOSURE_TABLE, TRACKED_CHANGE_TABLE } from './schema-plan.js';
import type { JsonStep, SqlDialect, SqlScalarType } from './sql-dialect.js';
import type { TableLayout } from './table-layout.js';

/** The SQL expressions of one row's securable values, by subject kind. */
export interface SubjectExpressions {
  readonly educationOrganizations: readonly string[];
  readonly students: readonly string[];
  readonly staffs: readonly string[];
  readonly contacts: readonly string[];
  readonly namespaces: readonly string[];
  /** The row's ownership token (NULL for none): a live row's from its document, a tombstone's as it kept it. */
  readonly owner: string;
}

/** The named parameters an access predicate binds (`@claims`, `@prefixes`, `@owners`); lists as the dialect binds them. */
export interface AccessParameters {
  readonly claims: unknown;
  readonly prefixes: unknown;
  readonly owners: unknown;
}

const NONE: readonly never[] = [];

export function accessParametersOf(filter: AccessFilter | undefined, dialect: SqlDialect): AccessParameters {
  return {
    claims: dialect.bindList(filter?.educationOrganizationIds ?? NONE),
    prefixes: dialect.bindList(filter?.namespacePrefixes ?? NONE),
    owners: dialect.bindList(filter?.ownershipTokenIds ?? NONE),
  };
}

/** Part of a prepared statement's cache key: equal signatures give the same predicate SQL. */
export function accessSignatureOf(filter: AccessFilter | undefined): string {
  if (filter === undefined) return '';
  const rules = filter.relationships.map((rule) =>
    [rule.educationOrganizations, rule.students, rule.staffs, rule.contacts].join(':'),
  );
  const namespaces = filter.namespacePrefixes === undefined ? '' : 'ns';
  const ownership = filter.ownershipTokenIds === undefined ? '' : 'owner';
  return `access(${rules.join('|')};${namespaces};${ownership})`;
}

/** A live row's securable values: its typed columns (the row aliased `r`). */
export function subjectColumnsOf(layout: TableLayout): SubjectExpressions {
  const columnsAt = (paths: readonly string[]) =>
    paths.map((path) => `r.${layout.columns.find((column) => column.path === path)?.name ?? 'NULL'}`);
  const elements = layout.resource.securableElements;
  return {
    educationOrganizations: columnsAt(elements.educationOrganizations.map((element) => element.path)),
    students: columnsAt(elements.students),
    staffs: columnsAt(elements.staffs),
    contacts: columnsAt(elements.contacts),
    namespaces: columnsAt(elements.namespaces),
    owner: `(SELECT o.ownership_token FROM ${DOCUMENT_OWNER_TABLE} o WHERE o.doc_id = r.doc_id)`,
  };
}

/**
 * How a condition tests membership. `set` builds the caller's ed-orgs once per statement and probes people per row,
 * which pays off when a page of rows is tested (lists); `probe` tests each value against the claims and the closure
 * index directly, several times cheaper when one value is tested (an item's authorization); `population` builds the
 * people the caller relates to once too, for statements that test every matching row (counts, partitions): each row
 * is then one look-up in that set, answered from the securables index (securables-index.ts) without reading rows.
 */
export type MembershipForm = 'set' | 'probe' | 'population';

/** Closure columns for ed-orgs below the claims (`source` is the claim) or above them (Inverted strategies). */
const DIRECTIONS = {
  below: { claim: 'source_id', related: 'target_id' },
  above: { claim: 'target_id', related: 'source_id' },
} as const;

interface Association {
  readonly table: string;
  readonly resourceId: number;
  /** Column and tracked-securables name of the ed-org, and the column of each person the association relates. */
  readonly edOrgColumn: string;
  readonly edOrgName: string;
  readonly personColumns: Readonly<Record<'student' | 'staff' | 'contact', string | undefined>>;
}

function columnOf(catalog: ResourceTables, resource: ResourceModel, path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  return catalog.tableOf(resource).layout.columns.find((column) => column.path === path)?.name;
}

function associationOf(catalog: ResourceTables, registry: ModelRegistry, endpoint: string): Association | undefined {
  const resource = registry.getResource('ed-fi', endpoint);
  if (resource === undefined) return undefined;
  const elements = resource.securableElements;
  const edOrg = elements.educationOrganizations[0];
  const table = catalog.tableOf(resource);
  return {
    table: table.layout.table,
    resourceId: table.resourceId,
    edOrgColumn: columnOf(catalog, resource, edOrg?.path) ?? 'NULL',
    edOrgName: edOrg?.name ?? '',
    personColumns: {
      student: columnOf(catalog, resource, elements.students[0]),
      staff: columnOf(catalog, resource, elements.staffs[0]),
      contact: columnOf(catalog, resource, elements.contacts[0]),
    },
  };
}

export class AccessSql {
  readonly #enrollment: Association | undefined;
  readonly #responsibility: Association | undefined;
  readonly #employment: Association | undefined;
  readonly #assignment: Association | undefined;
  readonly #studentContact: Association | undefined;

  constructor(
    catalog: ResourceTables,
    registry: ModelRegistry,
    private readonly dialect: SqlDialect,
  ) {
    const association = (endpoint: string) => associationOf(catalog, registry, endpoint);
    this.#enrollment = association('studentSchoolAssociations');
    this.#responsibility = association('studentEducationOrganizationResponsibilityAssociations');
    this.#employment = association('staffEducationOrganizationEmploymentAssociations');
    this.#assignment = association('staffEducationOrganizationAssignmentAssociations');
    this.#studentContact = association('studentContactAssociations');
  }

  /**
   * Whether the value of `expression` is related to the caller's ed-orgs (`@claims`); with deletes, tombstoned
   * associations count too. Ed-orgs are one small uncorrelated set; people are probed per row through the association
   * indexes, so a page of rows costs a page of probes rather than building the district's whole population.
   */
  relatedOf(
    relation: SubjectRelation,
    expression: string,
    includingDeletes: boolean,
    form: MembershipForm = 'set',
  ): string {
    const people = (association: Association | undefined, person: 'student' | 'staff') =>
      this.#personRelated(association, person, expression, includingDeletes, form);
    // The unary plus keeps the planner off the row's ed-org index: scanning in doc_id order lets a page stop early
    // instead of sorting every authorized row. A population is not ordered (see #ruleOf).
    const edOrg = form === 'population' ? expression : `+${expression}`;
    switch (relation) {
      case 'edOrgDescendant':
        return this.#edOrgRelatedToClaims(edOrg, 'below', form);
      case 'edOrgAncestor':
        return this.#edOrgRelatedToClaims(edOrg, 'above', form);
      case 'studentEnrollment':
        return people(this.#enrollment, 'student');
      case 'studentResponsibility':
        return people(this.#responsibility, 'student');
      case 'staff':
        return `(${people(this.#employment, 'staff')} OR ${people(this.#assignment, 'staff')})`;
      case 'contact':
        return this.#contactRelated(expression, includingDeletes, form);
    }
  }

  /** A condition on one row: its subjects related under at least one rule, and its namespaces within the prefixes. */
  predicateOf(
    filter: AccessFilter,
    subjects: SubjectExpressions,
    includingDeletes: boolean,
    form: MembershipForm = 'set',
  ): string {
    const conditions: string[] = [];
    if (filter.relationships.length > 0) {
      const rules = filter.relationships.map((rule) => this.#ruleOf(rule, subjects, includingDeletes, form));
      conditions.push(`(${rules.join(' OR ')})`);
    }
    if (filter.namespacePrefixes !== undefined) {
      const prefixes = this.dialect.valueList('prefixes', 'text', 'p');
      for (const namespace of subjects.namespaces) {
        conditions.push(
          `EXISTS (SELECT 1 FROM ${prefixes} WHERE lower(substr(${namespace}, 1, length(p.value))) = lower(p.value))`,
        );
      }
    }
    if (filter.ownershipTokenIds !== undefined) {
      const owners = this.dialect.valueList('owners', 'integer', 'w');
      // EXISTS rather than IN: an unowned row is then false, not NULL (the predicate is also selected as a value).
      conditions.push(`EXISTS (SELECT 1 FROM ${owners} WHERE w.value = ${subjects.owner})`);
    }
    return conditions.length === 0 ? this.dialect.true : conditions.join(' AND ');
  }

  #ruleOf(
    rule: RelationshipRule,
    subjects: SubjectExpressions,
    includingDeletes: boolean,
    form: MembershipForm,
  ): string {
    const related = (expressions: readonly string[], relation: SubjectRelation) =>
      expressions.map((expression) => this.relatedOf(relation, expression, includingDeletes, form));
    const people = [
      ...(rule.students === 'none'
        ? []
        : related(subjects.students, rule.students === 'enrollment' ? 'studentEnrollment' : 'studentResponsibility')),
      ...(rule.staffs ? related(subjects.staffs, 'staff') : []),
      ...(rule.contacts ? related(subjects.contacts, 'contact') : []),
    ];
    // Where a population relates people too, they drive it through the securables index (person first): the unary
    // plus keeps the planner off the ed-org's own index, which would read every row to test the person.
    const edOrgs =
      form === 'population' && people.length > 0
        ? subjects.educationOrganizations.map((expression) => `+${expression}`)
        : subjects.educationOrganizations;
    const conditions = [
      ...(rule.educationOrganizations === 'none'
        ? []
        : related(edOrgs, rule.educationOrganizations === 'ancestors' ? 'edOrgAncestor' : 'edOrgDescendant')),
      ...people,
    ];
    // A rule with no subject on this resource restricts nothing (the claims check already passed).
    return conditions.length === 0 ? this.dialect.true : `(${conditions.join(' AND ')})`;
  }

  #personRelated(
    association: Association | undefined,
    person: 'student' | 'staff',
    expression: string,
    includingDeletes: boolean,
    form: MembershipForm,
  ): string {
    const column = association?.personColumns[person];
    if (association === undefined || column === undefined) return this.dialect.false;
    const alias = `${person}_${association.resourceId}`;
    // In a page's probe the person drives: otherwise SQLite seeks the association's securables index once per claimed
    // ed-org, in id order, until one matches, which for an SEA's rows of late schools is every school.
    const associationEdOrg = `${alias}.${association.edOrgColumn}`;
    const edOrgColumn = form === 'set' ? this.dialect.testedNotSought(associationEdOrg) : associationEdOrg;
    const edOrgRelated = this.#edOrgRelatedToClaims(edOrgColumn, 'below', form);
    const live =
      form === 'population'
        ? `${expression} IN (SELECT ${alias}.${column} FROM ${association.table} ${alias} WHERE ${edOrgRelated})`
        : `EXISTS (SELECT 1 FROM ${association.table} ${alias} WHERE ${alias}.${column} = ${expression} ` +
          `AND ${edOrgRelated}${this.#perRow(form)})`;
    if (!includingDeletes) return live;
    const tracked = person === 'student' ? 'studentUniqueIds' : 'staffUniqueIds';
    return `(${live} OR ${this.#trackedAssociation(association, alias, (securable) => {
      const trackedEdOrg = securable(['educationOrganizationIds', association.edOrgName], 'integer');
      return (
        `${securable([tracked, 0], 'text')} = ${expression} AND ` +
        this.#edOrgRelatedToClaims(trackedEdOrg, 'below', form)
      );
    })})`;
  }

  /**
   * Whether an association was deleted or changed key while it held the values `condition` tests: the ODS's
   * IncludingDeletes views count the old values of every tracked change of an association.
   */
  #trackedAssociation(
    association: Association,
    alias: string,
    condition: (securable: (steps: JsonStep[], type: SqlScalarType) => string) => string,
  ): string {
    const tombstone = `${alias}_deleted`;
    const securable = (steps: JsonStep[], type: SqlScalarType) =>
      this.dialect.jsonScalar(`${tombstone}.old_securables`, steps, type);
    return (
      `EXISTS (SELECT 1 FROM ${TRACKED_CHANGE_TABLE} ${tombstone} ` +
      `WHERE ${tombstone}.resource_id = ${association.resourceId} AND ${condition(securable)})`
    );
  }

  #contactRelated(expression: string, includingDeletes: boolean, form: MembershipForm): string {
    const association = this.#studentContact;
    const contact = association?.personColumns.contact;
    const student = association?.personColumns.student;
    if (association === undefined || contact === undefined || student === undefined) return this.dialect.false;
    const studentRelated = (value: string) =>
      this.#personRelated(this.#enrollment, 'student', value, includingDeletes, form);
    const live =
      form === 'population'
        ? `${expression} IN (SELECT sca.${contact} FROM ${association.table} sca WHERE ${studentRelated(`sca.${student}`)})`
        : `EXISTS (SELECT 1 FROM ${association.table} sca WHERE sca.${contact} = ${expression} AND ${studentRelated(`sca.${student}`)}${this.#perRow(form)})`;
    if (!includingDeletes) return live;
    const tracked = this.#trackedAssociation(
      association,
      'sca',
      (securable) =>
        `${securable(['contactUniqueIds', 0], 'text')} = ${expression} AND ` +
        studentRelated(securable(['studentUniqueIds', 0], 'text')),
    );
    return `(${live} OR ${tracked})`;
  }

  /**
   * The end of a person's `EXISTS` in a page's test: probed per row, like the ed-orgs (filteredNotJoined), so that a
   * page read in doc_id order stops at its end. Pulled up into joins, the claims' reach is a guess (a few ed-orgs
   * where an SEA's is every one), the page's rows are taken for few, and a list filtered on a value most rows have
   * was read whole (from the enrolments, or the filter's index) and sorted: 6.8 s a page at 100,000 students.
   */
  #perRow(form: MembershipForm): string {
    return form === 'set' ? this.dialect.testedPerRow : '';
  }

  /**
   * Whether `expression` is one of the caller's ed-orgs or related to one through the closure; a claim counts even when
   * no such ed-org is stored (as in the ODS).
   */
  #edOrgRelatedToClaims(expression: string, direction: keyof typeof DIRECTIONS, form: MembershipForm): string {
    const { claim, related } = DIRECTIONS[direction];
    const claims = (alias?: string) => this.dialect.valueList('claims', 'integer', alias);
    if (form === 'population') return `${expression} IN (${this.#claimedEdOrgs(direction)})`;
    if (form === 'set') return this.dialect.filteredNotJoined(`${expression} IN (${this.#claimedEdOrgs(direction)})`);
    return (
      `(EXISTS (SELECT 1 FROM ${claims('j')} WHERE j.value = ${expression}) OR EXISTS (SELECT 1 FROM ` +
      `${EDORG_CLOSURE_TABLE} c JOIN ${claims('j')} ON c.${claim} = j.value WHERE c.${related} = ${expression}))`
    );
  }

  /** The caller's ed-orgs and those below them (`@claims`), once each. */
  claimedDescendantsSql(): string {
    return this.#claimedEdOrgs('below');
  }

  /** The caller's ed-orgs and those related to them through the closure, once each. */
  #claimedEdOrgs(direction: keyof typeof DIRECTIONS): string {
    const { claim, related } = DIRECTIONS[direction];
    const claims = this.dialect.valueList('claims', 'integer');
    return (
      `SELECT value FROM ${claims} UNION SELECT c.${related} FROM ${EDORG_CLOSURE_TABLE} c ` +
      `WHERE c.${claim} IN (SELECT value FROM ${claims})`
    );
  }
}
