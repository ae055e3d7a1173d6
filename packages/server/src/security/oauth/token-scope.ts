// The `scope` of a token request: an EducationOrganizationId, parsed as the ODS does (a 32-bit int).
import { OAuthError } from '@edfi-api/framework';

// .NET int.TryParse with NumberStyles.Integer: optional surrounding white space and a leading sign.
const INT32_TEXT = /^[\t\n\v\f\r ]*[+-]?[0-9]+[\t\n\v\f\r ]*$/;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

const SCOPE_NOT_A_NUMBER =
  "The supplied 'scope' was not a number (it should be an EducationOrganizationId that is explicitly associated with the client).";

/** Row 10 of §2.3; the association check of row 11 belongs to relationship-based authorization (not yet built). */
export function checkScope(scope: string): OAuthError | undefined {
  const value = INT32_TEXT.test(scope) ? Number(scope.trim()) : Number.NaN;
  if (Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX) return undefined;
  return new OAuthError('invalid_scope', SCOPE_NOT_A_NUMBER);
}
