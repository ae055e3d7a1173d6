// Reads named string fields from a form or JSON body (the OAuth endpoints take either), names compared
// case-insensitively as ASP.NET binds them.
import { InvalidInput, UnsupportedMediaType, type RequestContext } from '@edfi-api/framework';

/** Field name (lower case) → value; numbers and booleans of a JSON body count as their text. */
export type RequestFields<N extends string> = { [K in N]?: string };

const ACCEPTED_MEDIA_TYPES: ReadonlySet<string> = new Set(['application/x-www-form-urlencoded', 'application/json']);

/** The HTTP layer words the 415: a missing header and an unsupported type get different messages (§6.3). */
function assertAcceptedContentType(contentType: string | undefined): void {
  const mediaType = contentType?.split(';', 1)[0]?.trim().toLowerCase();
  if (mediaType === undefined || !ACCEPTED_MEDIA_TYPES.has(mediaType)) throw new UnsupportedMediaType();
}

function fieldsOf<N extends string>(body: unknown, names: readonly N[]): RequestFields<N> {
  const fields: RequestFields<N> = {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fields;
  const isField = (name: string): name is N => (names as readonly string[]).includes(name);
  for (const [name, value] of Object.entries(body)) {
    const field = name.toLowerCase();
    if (!isField(field)) continue;
    if (typeof value === 'string') fields[field] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') fields[field] = String(value);
  }
  return fields;
}

/** Throws UnsupportedMediaType (415) unless the body is a form or JSON; undefined when the body cannot be parsed. */
export async function readRequestFields<N extends string>(
  ctx: RequestContext<unknown>,
  names: readonly N[],
): Promise<RequestFields<N> | undefined> {
  assertAcceptedContentType(ctx.headers['content-type']);
  try {
    return fieldsOf(await ctx.body(), names);
  } catch (error) {
    if (error instanceof InvalidInput) return undefined;
    throw error;
  }
}
