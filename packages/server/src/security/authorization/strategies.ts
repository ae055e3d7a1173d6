// What each authorization strategy of the claims file asks of the data (contract §8.4): a relationship rule (OR-ed with
// the other rules), a namespace check or an ownership check (AND-ed), or nothing beyond the claim.
import type { RelationshipRule } from '../../store/store.js';

export type StrategyEffect =
  | { readonly kind: 'none' }
  | { readonly kind: 'relationship'; readonly rule: RelationshipRule }
  | { readonly kind: 'namespace' }
  | { readonly kind: 'ownership' };

const edOrgsOnly: RelationshipRule = {
  educationOrganizations: 'descendants',
  students: 'none',
  staffs: false,
  contacts: false,
};
const edOrgsAndPeople: RelationshipRule = {
  educationOrganizations: 'descendants',
  students: 'enrollment',
  staffs: true,
  contacts: true,
};
const peopleOnly: RelationshipRule = { ...edOrgsAndPeople, educationOrganizations: 'none' };
const studentsOnly: RelationshipRule = { ...peopleOnly, staffs: false, contacts: false };

const relationship = (rule: RelationshipRule): StrategyEffect => ({ kind: 'relationship', rule });

/** The IncludingDeletes variants check the same subjects; change feeds always see deleted associations too. */
const effects: ReadonlyMap<string, StrategyEffect> = new Map([
  ['NoFurtherAuthorizationRequired', { kind: 'none' }],
  ['RelationshipsWithEdOrgsOnly', relationship(edOrgsOnly)],
  ['RelationshipsWithEdOrgsOnlyInverted', relationship({ ...edOrgsOnly, educationOrganizations: 'ancestors' })],
  ['RelationshipsWithEdOrgsAndPeople', relationship(edOrgsAndPeople)],
  ['RelationshipsWithEdOrgsAndPeopleIncludingDeletes', relationship(edOrgsAndPeople)],
  [
    'RelationshipsWithEdOrgsAndPeopleInverted',
    relationship({ ...edOrgsAndPeople, educationOrganizations: 'ancestors' }),
  ],
  ['RelationshipsWithPeopleOnly', relationship(peopleOnly)],
  ['RelationshipsWithStudentsOnly', relationship(studentsOnly)],
  ['RelationshipsWithStudentsOnlyIncludingDeletes', relationship(studentsOnly)],
  ['RelationshipsWithStudentsOnlyThroughResponsibility', relationship({ ...studentsOnly, students: 'responsibility' })],
  [
    'RelationshipsWithStudentsOnlyThroughResponsibilityIncludingDeletes',
    relationship({ ...studentsOnly, students: 'responsibility' }),
  ],
  ['NamespaceBased', { kind: 'namespace' }],
  ['OwnershipBased', { kind: 'ownership' }],
]);

export class UnknownStrategyError extends Error {
  override readonly name = 'UnknownStrategyError';
}

export function strategyEffectOf(strategy: string): StrategyEffect {
  const effect = effects.get(strategy);
  if (effect === undefined) throw new UnknownStrategyError(`Unsupported authorization strategy '${strategy}'`);
  return effect;
}
