// The single argument every handler receives; all per-request state lives here.

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Principal } from '../auth/principal.js';
import type { InjectionToken } from '../container/container-like.js';

/** Query-string values (last value wins), with `getAll` for repeated names. */
export type QueryParams = Readonly<Record<string, string | undefined>> & {
  getAll(name: string): string[];
};

export interface RequestContext<Params = Record<string, string | number>> {
  readonly method: string;
  /** The path after the version prefix, as matched (e.g. `/users/1`). */
  readonly path: string;
  readonly version: number;
  readonly params: Params;
  readonly query: QueryParams;
  readonly headers: IncomingHttpHeaders;
  readonly auth: Principal;
  /** Parses the request body once (JSON or form) and returns it; later calls return the same value. */
  body<T = unknown>(): Promise<T>;
  /** The request body bytes as received (within the body limit), read once; for applications that parse it themselves. */
  rawBody(): Promise<Buffer>;
  /** Resolves a service from the request's container scope. */
  get<T>(token: InjectionToken<T>): T;
  readonly raw: { readonly url: string; readonly req?: IncomingMessage };
}
