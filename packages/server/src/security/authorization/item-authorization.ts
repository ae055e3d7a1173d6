// Authorizes one item's securable values (GET by id, writes): its namespaces against the caller's prefixes, then its
// subjects against the relationship rules, each subject probed once in the store.
import type { AuthorizedItem, DataPhase } from '../../api/authorization.js';
import { ApiProblem } from '../../api/problems.js';
import type { DocumentSecurables } from '../../model/index.js';
import type { RelationshipRule, SubjectProbe, SubjectRelation, AuthorizationProbes } from '../../store/store.js';
import { authorizationValueMissing, namespaceMismatch, namespaceMissing, relationshipDenied } from './data-denials.js';

export interface NamedRule {
  readonly strategy: string;
  readonly rule: RelationshipRule;
}

export interface ItemPolicy {
  readonly educationOrganizationIds: readonly number[];
  readonly rules: readonly NamedRule[];
  /** The NamespaceBased strategy's name and the caller's prefixes, when it applies. */
  readonly namespaces?: { readonly strategy: string; readonly prefixes: readonly string[] };
  /** The ownership tokens the caller may access, when OwnershipBased applies (and the feature is on). */
  readonly ownershipTokenIds?: readonly number[];
}

interface Subject {
  readonly property: string;
  readonly relation: SubjectRelation;
  readonly value: unknown;
}

const HINTS: Partial<Record<SubjectRelation, string>> = {
  studentEnrollment: "You may need to create a corresponding 'StudentSchoolAssociation' item.",
  studentResponsibility:
    "You may need to create a corresponding 'StudentEducationOrganizationResponsibilityAssociation' item.",
  staff:
    "You may need to create corresponding 'StaffEducationOrganizationEmploymentAssociation' or " +
    "'StaffEducationOrganizationAssignmentAssociation' items.",
  contact: "You may need to create corresponding 'StudentSchoolAssociation' and 'StudentContactAssociation' items.",
};

function subjectsOf(rule: RelationshipRule, securables: DocumentSecurables): Subject[] {
  const people = (values: readonly unknown[], property: string, relation: SubjectRelation): Subject[] =>
    values.map((value) => ({ property, relation, value }));
  const edOrgRelation = rule.educationOrganizations === 'ancestors' ? 'edOrgAncestor' : 'edOrgDescendant';
  return [
    ...(rule.educationOrganizations === 'none'
      ? []
      : securables.educationOrganizations.map(({ name, value }) => ({
          property: name,
          relation: edOrgRelation,
          value,
        }))),
    ...(rule.students === 'none'
      ? []
      : people(
          securables.students,
          'StudentUniqueId',
          rule.students === 'enrollment' ? 'studentEnrollment' : 'studentResponsibility',
        )),
    ...(rule.staffs ? people(securables.staffs, 'StaffUniqueId', 'staff') : []),
    ...(rule.contacts ? people(securables.contacts, 'ContactUniqueId', 'contact') : []),
  ] as Subject[];
}

const probeKey = (relation: SubjectRelation, value: string | number) => `${relation}\u0000${String(value)}`;

function authorizeNamespaces(policy: ItemPolicy, securables: DocumentSecurables, phase: DataPhase): void {
  const { namespaces } = policy;
  if (namespaces === undefined) return;
  for (const value of securables.namespaces) {
    if (typeof value !== 'string' || value === '') throw namespaceMissing(phase, namespaces.strategy);
    const folded = value.toLowerCase();
    if (!namespaces.prefixes.some((prefix) => folded.startsWith(prefix.toLowerCase())))
      throw namespaceMismatch(namespaces.prefixes, phase);
  }
}

/** Only stored items have an owner: a created item will be stamped with the caller's own token. */
async function authorizeOwnership(
  store: Pick<AuthorizationProbes, 'ownershipTokenOf'>,
  policy: ItemPolicy,
  item: AuthorizedItem,
): Promise<void> {
  if (policy.ownershipTokenIds === undefined || item.id === undefined) return;
  const owner = await store.ownershipTokenOf(item.id);
  if (owner === undefined) throw new ApiProblem('ownershipUninitialized');
  if (!policy.ownershipTokenIds.includes(owner)) throw new ApiProblem('ownershipMismatch');
}

export async function authorizeItem(
  store: AuthorizationProbes,
  policy: ItemPolicy,
  item: AuthorizedItem,
  phase: DataPhase,
): Promise<void> {
  const { securables } = item;
  authorizeNamespaces(policy, securables, phase);
  await authorizeOwnership(store, policy, item);
  if (policy.rules.length === 0) return;
  const subjectsByRule = policy.rules.map(({ strategy, rule }) => {
    const subjects = subjectsOf(rule, securables);
    const missing = subjects.find(({ value }) => typeof value !== 'string' && typeof value !== 'number');
    if (missing !== undefined) throw authorizationValueMissing(missing.property, phase, strategy);
    return subjects as (Subject & { readonly value: string | number })[];
  });
  const probes = new Map<string, SubjectProbe>();
  for (const subject of subjectsByRule.flat()) probes.set(probeKey(subject.relation, subject.value), subject);
  const answers = await store.relatedSubjects(policy.educationOrganizationIds, [...probes.values()]);
  const related = new Map([...probes.keys()].map((key, index) => [key, answers[index] === true]));
  const failuresByRule = subjectsByRule.map((subjects) =>
    subjects.filter(({ relation, value }) => !related.get(probeKey(relation, value))),
  );
  if (failuresByRule.some((failures) => failures.length === 0)) return;
  const failures = failuresByRule.flat();
  const properties = [...new Set(failures.map(({ property }) => property))];
  const hint = failures.map(({ relation }) => HINTS[relation]).find((text) => text !== undefined);
  throw relationshipDenied(policy.educationOrganizationIds, properties, hint);
}
