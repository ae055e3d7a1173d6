// Canonical natural-key strings: identity values in identity-path order, descriptor URIs lower-cased because
// descriptors match case-insensitively.
import type { JsonPath } from '../types.js';

export interface DocumentIdentity {
  /** Values in the order of the identity paths they were read from (absent values are undefined). */
  values: unknown[];
  /** Canonical string of the values; equal keys mean the same natural key. */
  key: string;
}

export type IdentityKeyBuilder = (values: unknown[]) => DocumentIdentity;

export function compileIdentityKey(
  paths: readonly JsonPath[],
  descriptorPaths: ReadonlySet<JsonPath>,
): IdentityKeyBuilder {
  const isDescriptor = paths.map((path) => descriptorPaths.has(path));
  return (values) => {
    const canonical = values.map((value, index) =>
      isDescriptor[index] && typeof value === 'string' ? value.toLowerCase() : value === undefined ? null : value,
    );
    return { values, key: JSON.stringify(canonical) };
  };
}
