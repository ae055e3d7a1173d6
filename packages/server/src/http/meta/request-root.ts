// The `{root}` of contract URLs (scheme://host[:port][/basePath]) as the client sees it, reverse-proxy headers included.
import type { IncomingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { RequestContext } from '@edfi-api/framework';

/** The first value of a header that proxies may send as a comma-separated list. */
function firstValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  const first = text?.split(',', 1)[0]?.trim();
  return first === '' ? undefined : first;
}

function schemeOf(ctx: Pick<RequestContext, 'headers' | 'raw'>): string {
  const forwarded = firstValue(ctx.headers, 'x-forwarded-proto')?.toLowerCase();
  if (forwarded === 'http' || forwarded === 'https') return forwarded;
  return (ctx.raw.req?.socket as TLSSocket | undefined)?.encrypted === true ? 'https' : 'http';
}

/** Leading slash, no trailing slash; `''` for the server root. */
export function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, '');
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/**
 * Honours `X-Forwarded-Proto`, `X-Forwarded-Host` and `X-Forwarded-Port` (first value of each); default ports are
 * left out, as .NET's Uri renders them. `basePath` must already be normalised.
 */
export function requestRoot(ctx: Pick<RequestContext, 'headers' | 'raw'>, basePath: string): string {
  const scheme = schemeOf(ctx);
  const host = firstValue(ctx.headers, 'x-forwarded-host') ?? firstValue(ctx.headers, 'host') ?? 'localhost';
  let url: URL;
  try {
    url = new URL(`${scheme}://${host}`);
  } catch {
    url = new URL(`${scheme}://localhost`);
  }
  const port = firstValue(ctx.headers, 'x-forwarded-port');
  if (port !== undefined && /^[0-9]{1,5}$/.test(port)) url.port = port;
  return `${url.origin}${basePath}`;
}
