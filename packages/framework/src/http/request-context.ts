// The per-request context object handed to handlers and to the authentication chain.

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Principal } from '../auth/principal.js';
import type { ContainerLike, InjectionToken, ScopeLike } from '../container/container-like.js';
import { parseBody } from './body.js';
import type { QueryParams, RequestContext } from './context.js';
import { emptyQuery, parseQuery } from './query.js';
import { PrincipalToken } from './tokens.js';

/** Where the raw body bytes come from: the socket, or an injected request. */
export type BodySource = (limit: number) => Promise<Buffer>;

export const anonymous: Principal = Object.freeze({ scheme: 'none', scopes: Object.freeze([]) });

export class Context implements RequestContext {
  auth: Principal = anonymous;
  private parsedQuery: QueryParams | undefined;
  private parsedBody: Promise<unknown> | undefined;
  private bodyBytes: Promise<Buffer> | undefined;
  private scope: ScopeLike | undefined;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly version: number,
    readonly params: Record<string, string | number>,
    private readonly search: string,
    readonly headers: IncomingHttpHeaders,
    readonly raw: { readonly url: string; readonly req?: IncomingMessage },
    private readonly bodySource: BodySource,
    private readonly bodyLimit: number,
    private readonly container: ContainerLike,
  ) {}

  get query(): QueryParams {
    if (this.parsedQuery === undefined) this.parsedQuery = this.search === '' ? emptyQuery : parseQuery(this.search);
    return this.parsedQuery;
  }

  body<T = unknown>(): Promise<T> {
    if (this.parsedBody === undefined) {
      const contentType = this.headers['content-type'];
      this.parsedBody = this.rawBody().then((raw) => parseBody(raw, contentType));
    }
    return this.parsedBody as Promise<T>;
  }

  rawBody(): Promise<Buffer> {
    this.bodyBytes ??= this.bodySource(this.bodyLimit);
    return this.bodyBytes;
  }

  readBody(): Promise<unknown> {
    return this.body();
  }

  get<T>(token: InjectionToken<T>): T {
    if (token === PrincipalToken) return this.auth as T;
    if (this.container.createScope === undefined) return this.container.get(token);
    if (this.scope === undefined) {
      this.scope = this.container.createScope();
      this.scope.provide?.(PrincipalToken, this.auth);
    }
    return this.scope.get(token);
  }

  /** Releases the request scope, if one was created. */
  dispose(): void | Promise<void> {
    return this.scope?.dispose?.();
  }
}
