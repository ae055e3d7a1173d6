// The `{root}` of contract URLs (scheme://host[:port][/basePath]) as the client sees it: from the request's own Host
// and socket, or from the reverse proxy's `X-Forwarded-*` headers when the proxy in front is trusted to set them.
import type { IncomingHttpHeaders } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { RequestContext } from '@edfi-api/framework';

/**
 * Which `X-Forwarded-*` values to believe (`--trust-proxy`): none (the default: any client could send them), the
 * value the `hops`-th proxy from the server wrote (each proxy appends to the list), or the first value when the
 * request comes straight from one of `addresses` (a proxy that passes on what the proxies before it wrote).
 */
export type TrustProxy =
  | { readonly kind: 'none' }
  | { readonly kind: 'hops'; readonly hops: number }
  | { readonly kind: 'addresses'; readonly addresses: ReadonlySet<string> };

export const TRUST_NO_PROXY: TrustProxy = { kind: 'none' };

type RootRequest = Pick<RequestContext, 'headers' | 'raw'>;

/** `--trust-proxy` as given: a hop count, or a comma-separated list of proxy addresses. */
export function parseTrustProxy(text: string): TrustProxy {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    return hops === 0 ? TRUST_NO_PROXY : { kind: 'hops', hops };
  }
  const addresses = trimmed
    .split(',')
    .map((address) => address.trim())
    .filter((address) => address !== '');
  if (addresses.length === 0) throw new Error(`--trust-proxy expects a hop count or proxy addresses, not '${text}'.`);
  return { kind: 'addresses', addresses: new Set(addresses.flatMap(addressForms)) };
}

/** An IPv4 address also as the IPv4-mapped IPv6 form a dual-stack socket reports, and the other way round. */
function addressForms(address: string): string[] {
  if (address.startsWith('::ffff:')) return [address, address.slice('::ffff:'.length)];
  return /^\d+\.\d+\.\d+\.\d+$/.test(address) ? [address, `::ffff:${address}`] : [address];
}

function headerValues(headers: IncomingHttpHeaders, name: string): string[] {
  const value = headers[name];
  const text = Array.isArray(value) ? value.join(',') : value;
  if (text === undefined) return [];
  return text.split(',').map((part) => part.trim());
}

/** The forwarded value the trust setting believes, or undefined (not sent, empty, or not trusted). */
function forwarded(ctx: RootRequest, name: string, trust: TrustProxy): string | undefined {
  if (trust.kind === 'none') return undefined;
  const values = headerValues(ctx.headers, name);
  let value: string | undefined;
  if (trust.kind === 'hops') value = values[Math.max(0, values.length - trust.hops)];
  else if (trust.addresses.has(ctx.raw.req?.socket.remoteAddress ?? '')) value = values[0];
  return value === '' ? undefined : value;
}

function schemeOf(ctx: RootRequest, trust: TrustProxy): string {
  const scheme = forwarded(ctx, 'x-forwarded-proto', trust)?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') return scheme;
  return (ctx.raw.req?.socket as TLSSocket | undefined)?.encrypted === true ? 'https' : 'http';
}

/** Leading slash, no trailing slash; `''` for the server root. */
export function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.replace(/\/+$/, '');
  return trimmed === '' || trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/**
 * The root of the request: `X-Forwarded-Proto`, `X-Forwarded-Host` and `X-Forwarded-Port` only as `trust` allows;
 * default ports are left out, as .NET's Uri renders them. `basePath` must already be normalised.
 */
export function requestRoot(ctx: RootRequest, basePath: string, trust: TrustProxy = TRUST_NO_PROXY): string {
  const scheme = schemeOf(ctx, trust);
  const host = forwarded(ctx, 'x-forwarded-host', trust) ?? headerValues(ctx.headers, 'host')[0] ?? 'localhost';
  let url: URL;
  try {
    url = new URL(`${scheme}://${host === '' ? 'localhost' : host}`);
  } catch {
    url = new URL(`${scheme}://localhost`);
  }
  const port = forwarded(ctx, 'x-forwarded-port', trust);
  if (port !== undefined && /^[0-9]{1,5}$/.test(port)) url.port = port;
  return `${url.origin}${basePath}`;
}
