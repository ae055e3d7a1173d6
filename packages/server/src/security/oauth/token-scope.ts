// The `scope` of a token request (contract §2.3 rows 10–11): an EducationOrganizationId, parsed as the ODS does (a
// 32-bit int), that must be one of those explicitly associated with the client's application.
import { OAuthError } from '@edfi-api/framework';

// .NET int.TryParse with NumberStyles.Integer: optional surrounding white space and a leading sign.
const INT32_TEXT = /^[\t\n\v\f\r ]*[+-]?[0-9]+[\t\n\v\f\r ]*$/;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

const SCOPE_NOT_A_NUMBER =
  "The supplied 'scope' was not a number (it should be an EducationOrganizationId that is explicitly associated with the client).";
const SCOPE_NOT_ASSOCIATED =
  "The client is not explicitly associated with the EducationOrganizationId specified in the requested 'scope'.";

/** Row 10: the scope's education organization id, or the `invalid_scope` error. */
export function parseScope(scope: string): number | OAuthError {
  const value = INT32_TEXT.test(scope) ? Number(scope.trim()) : Number.NaN;
  if (Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX) return value;
  return new OAuthError('invalid_scope', SCOPE_NOT_A_NUMBER);
}

/** Row 11: the id when the client's application is associated with it, else the `invalid_scope` error. */
export function associatedScope(id: number, associated: readonly number[]): number | OAuthError {
  return associated.includes(id) ? id : new OAuthError('invalid_scope', SCOPE_NOT_ASSOCIATED);
}
