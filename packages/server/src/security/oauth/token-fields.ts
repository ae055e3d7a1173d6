// Reads the token request's fields from a form or JSON body, names compared case-insensitively as the ODS binds them.
import { InvalidInput, OAuthError, UnsupportedMediaType, type RequestContext } from '@edfi-api/framework';

export interface TokenRequestFields {
  client_id?: string;
  client_secret?: string;
  grant_type?: string;
  scope?: string;
}

const FIELD_NAMES: ReadonlySet<string> = new Set(['client_id', 'client_secret', 'grant_type', 'scope']);
const ACCEPTED_MEDIA_TYPES: ReadonlySet<string> = new Set(['application/x-www-form-urlencoded', 'application/json']);

/** The HTTP layer words the 415: a missing header and an unsupported type get different messages (§6.3). */
function assertAcceptedContentType(contentType: string | undefined): void {
  const mediaType = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType === undefined || !ACCEPTED_MEDIA_TYPES.has(mediaType)) throw new UnsupportedMediaType();
}

function fieldsOf(body: unknown): TokenRequestFields {
  const fields: Record<string, string> = {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fields;
  for (const [name, value] of Object.entries(body)) {
    const field = name.toLowerCase();
    if (!FIELD_NAMES.has(field)) continue;
    if (typeof value === 'string') fields[field] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') fields[field] = String(value);
  }
  return fields;
}

/** Throws UnsupportedMediaType (415) unless the body is a form or JSON; an unparsable body is `invalid_request`. */
export async function readTokenFields(ctx: RequestContext): Promise<TokenRequestFields | OAuthError> {
  assertAcceptedContentType(ctx.headers['content-type']);
  try {
    return fieldsOf(await ctx.body());
  } catch (error) {
    if (error instanceof InvalidInput) return new OAuthError('invalid_request');
    throw error;
  }
}
