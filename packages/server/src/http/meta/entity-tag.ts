// Metadata documents serialised once with a strong ETag (quoted SHA-256 hex, as the ODS uses) and If-None-Match → 304.
import { createHash } from 'node:crypto';
import { raw, type RawResponse, type RequestContext } from '@edfi-api/framework';

export interface TaggedJson {
  readonly text: string;
  readonly etag: string;
}

export function tagJson(body: unknown): TaggedJson {
  const text = JSON.stringify(body);
  return { text, etag: `"${createHash('sha256').update(text).digest('hex')}"` };
}

/** `*`, a list, and weak validators are accepted as RFC 9110 allows for If-None-Match. */
function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag.toLowerCase() === etag;
  });
}

/** Answers with the cached text, or 304 when the client holds the same version. */
export function sendTagged(ctx: Pick<RequestContext, 'headers'>, tagged: TaggedJson): RawResponse {
  if (matchesIfNoneMatch(ctx.headers['if-none-match'], tagged.etag)) {
    return raw(undefined, { status: 304, headers: { ETag: tagged.etag } });
  }
  return raw(tagged.text, { headers: { 'Content-Type': 'application/json; charset=utf-8', ETag: tagged.etag } });
}

/** `GET /health` answers plain text. */
export function sendPlainText(text: string): RawResponse {
  return raw(text, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
