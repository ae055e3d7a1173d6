// The per-request context object handed to onRequest, to the authentication chain and to handlers.

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { ANONYMOUS } from '../auth/principal.js';
import type { ContainerLike, InjectionToken, ScopeLike } from '../container/container-like.js';
import type { AuthScheme, IncomingRequestContext, Principal, QueryParams, RequestContext } from '../types.js';
import { parseBody } from './body.js';
import { emptyQuery, parseQuery } from './query.js';
import { PrincipalToken } from './tokens.js';

/**
 * Where the raw body bytes come from: the socket (`req`), or an injected request. `convert` runs on the complete bytes
 * (a throw rejects), so that reading and parsing settle one promise.
 */
export type BodySource = <T>(
  limit: number,
  req: IncomingMessage | undefined,
  convert: (bytes: Buffer) => T,
) => Promise<T>;

function asReceived(bytes: Buffer): Buffer {
  return bytes;
}

/** What every context of one server shares. */
export interface ContextServices {
  readonly bodyLimit: number;
  readonly container: ContainerLike;
  /** Runs an authentication chain for these schemes (no scopes) against the request. */
  readonly authenticate: (schemes: readonly AuthScheme[], ctx: Context) => Promise<Principal>;
}

export class Context implements RequestContext, IncomingRequestContext {
  auth: Principal = ANONYMOUS;
  private parsedQuery: QueryParams | undefined;
  private parsedBody: Promise<unknown> | undefined;
  private bodyBytes: Promise<Buffer> | undefined;
  /** The bytes body() read, for a later rawBody(). */
  private receivedBytes: Buffer | undefined;
  private scope: ScopeLike | undefined;
  private rawRequest: { readonly url: string; readonly req?: IncomingMessage } | undefined;

  constructor(
    readonly method: string,
    readonly path: string,
    readonly version: number,
    /** Empty until the route is found (onRequest runs before routing). */
    public params: Record<string, string | number>,
    private readonly search: string,
    readonly headers: IncomingHttpHeaders,
    private readonly url: string,
    private readonly req: IncomingMessage | undefined,
    private readonly bodySource: BodySource,
    private readonly services: ContextServices,
  ) {}

  /** Built on first use: most handlers never look. */
  get raw(): { readonly url: string; readonly req?: IncomingMessage } {
    this.rawRequest ??= { url: this.url, req: this.req };
    return this.rawRequest;
  }

  get identity(): unknown {
    return this.auth.identity;
  }

  get query(): QueryParams {
    if (this.parsedQuery === undefined) this.parsedQuery = this.search === '' ? emptyQuery : parseQuery(this.search);
    return this.parsedQuery;
  }

  body<T = unknown>(): Promise<T> {
    if (this.parsedBody === undefined) {
      const contentType = this.headers['content-type'];
      // Read and parsed in one step unless the bytes were asked for first: a promise and a tick less per body.
      this.parsedBody =
        this.bodyBytes === undefined
          ? this.bodySource(this.services.bodyLimit, this.req, (bytes) => {
              this.receivedBytes = bytes;
              return parseBody(bytes, contentType);
            })
          : this.bodyBytes.then((bytes) => parseBody(bytes, contentType));
    }
    return this.parsedBody as Promise<T>;
  }

  rawBody(): Promise<Buffer> {
    if (this.bodyBytes === undefined) {
      this.bodyBytes =
        this.parsedBody === undefined
          ? this.bodySource(this.services.bodyLimit, this.req, asReceived)
          : this.parsedBody.then(
              () => this.receivedBytes!,
              // A body that does not parse was still received; one that could not be read fails the same way here.
              (error: unknown) => {
                if (this.receivedBytes === undefined) throw error;
                return this.receivedBytes;
              },
            );
    }
    return this.bodyBytes;
  }

  readBody(): Promise<unknown> {
    return this.body();
  }

  async authenticate(schemes: readonly AuthScheme[]): Promise<Principal> {
    this.auth = await this.services.authenticate(schemes, this);
    return this.auth;
  }

  get<T>(token: InjectionToken<T>): T {
    if (token === PrincipalToken) return this.auth as T;
    const container = this.services.container;
    if (container.createScope === undefined) return container.get(token);
    if (this.scope === undefined) {
      this.scope = container.createScope();
      this.scope.provide?.(PrincipalToken, this.auth);
    }
    return this.scope.get(token);
  }

  /** Releases the request scope, if one was created. */
  dispose(): void | Promise<void> {
    return this.scope?.dispose?.();
  }
}
