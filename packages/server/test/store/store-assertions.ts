// Shared by the conformance suites: a list query for everything, a relationship rule, and the StoreError a rejected
// operation must raise.
import { expect } from 'vitest';
import { StoreError, type ListQuery, type RelationshipRule, type StoreErrorKind } from '../../src/store/store.js';

export const everything = (overrides: Partial<ListQuery> = {}): ListQuery => ({
  filters: [],
  offset: 0,
  limit: 500,
  totalCount: true,
  ...overrides,
});

/** A rule relating nothing but what `overrides` gives. */
export const rule = (overrides: Partial<RelationshipRule>): RelationshipRule => ({
  educationOrganizations: 'none',
  students: 'none',
  staffs: false,
  contacts: false,
  ...overrides,
});

export async function storeError(operation: Promise<unknown>, kind: StoreErrorKind): Promise<StoreError> {
  const error = await operation.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(StoreError);
  expect((error as StoreError).kind).toBe(kind);
  return error as StoreError;
}
