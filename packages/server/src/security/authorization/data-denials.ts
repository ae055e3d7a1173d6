// The 403 problems of data authorization (contract §8.7): no relationship with the caller's ed-orgs, a missing
// authorization value, and the namespace failures.
import type { DataPhase } from '../../api/authorization.js';
import { ApiProblem } from '../../api/problems.js';

const NOT_AUTHORIZED = 'Access to the requested data could not be authorized.';
const MAX_LISTED_CLAIMS = 5;

function quoted(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ');
}

/** `claim (255901)`, `claims (1, 2, 3, 4, 5, ...)`, `claims (none)`. */
function claimsPhrase(educationOrganizationIds: readonly number[]): string {
  const sorted = [...educationOrganizationIds].sort((a, b) => a - b);
  const listed = sorted.slice(0, MAX_LISTED_CLAIMS).map(String);
  if (sorted.length > MAX_LISTED_CLAIMS) listed.push('...');
  const noun = sorted.length === 1 ? 'claim' : 'claims';
  return `${noun} (${listed.length === 0 ? 'none' : listed.join(', ')})`;
}

export function relationshipDenied(
  educationOrganizationIds: readonly number[],
  properties: readonly string[],
  hint: string | undefined,
): ApiProblem {
  const target =
    properties.length === 1
      ? `the resource item's ${quoted(properties)} value`
      : `one or more of the following properties of the resource item: ${quoted(properties)}`;
  return new ApiProblem('relationshipsDenied', {
    detail: hint === undefined ? NOT_AUTHORIZED : `${NOT_AUTHORIZED} Hint: ${hint}`,
    errors: [
      `No relationships have been established between the caller's education organization id ` +
        `${claimsPhrase(educationOrganizationIds)} and ${target}.`,
    ],
  });
}

export function authorizationValueMissing(property: string, phase: DataPhase, strategy: string): ApiProblem {
  if (phase === 'proposed') {
    return new ApiProblem('elementRequired', {
      detail: `${NOT_AUTHORIZED} The '${property}' value is required for authorization purposes.`,
    });
  }
  return new ApiProblem('elementUninitialized', {
    detail: `${NOT_AUTHORIZED} The existing '${property}' value is required for authorization purposes.`,
    errors: [`The existing resource item is inaccessible to clients using the '${strategy}' authorization strategy.`],
  });
}

export function namespaceMismatch(prefixes: readonly string[], phase: DataPhase): ApiProblem {
  const value = phase === 'existing' ? "The existing 'Namespace' value" : "The 'Namespace' value";
  return new ApiProblem('namespaceMismatch', {
    detail:
      `${NOT_AUTHORIZED} ${value} of the data does not start with any of the caller's associated namespace prefixes ` +
      `(${quoted(prefixes)}).`,
  });
}

export function namespaceMissing(phase: DataPhase, strategy: string): ApiProblem {
  if (phase === 'proposed') return new ApiProblem('namespaceRequired');
  return new ApiProblem('namespaceUninitialized', {
    errors: [
      `The existing resource item is inaccessible to clients using the '${strategy}' authorization strategy ` +
        "because the 'Namespace' value has not been assigned.",
    ],
  });
}

export function noNamespacePrefixes(strategy: string): ApiProblem {
  return new ApiProblem('noNamespaces', {
    errors: [
      `The API client has been given permissions on a resource that uses the '${strategy}' authorization strategy ` +
        "but the client doesn't have any namespace prefixes assigned.",
    ],
  });
}
