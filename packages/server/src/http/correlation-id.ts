// The correlation id echoed in problem bodies (contract §3.1): header `correlation-id`, else query `correlationId`,
// else a new GUID with hyphens.
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const CORRELATION_HEADER = 'correlation-id';
const CORRELATION_PARAMETER = 'correlationid';

function fromQuery(url: string): string | undefined {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return undefined;
  for (const [name, value] of new URLSearchParams(url.slice(queryStart + 1))) {
    if (name.toLowerCase() === CORRELATION_PARAMETER && value !== '') return value;
  }
  return undefined;
}

export function correlationIdOf(request: { readonly url: string; readonly headers: IncomingHttpHeaders }): string {
  const header = request.headers[CORRELATION_HEADER];
  const value = Array.isArray(header) ? header[0] : header;
  if (value !== undefined && value !== '') return value;
  return fromQuery(request.url) ?? randomUUID();
}
