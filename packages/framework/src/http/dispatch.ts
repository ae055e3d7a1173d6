// The request pipeline: version and path from the URL, route lookup, authentication, handler, response.

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Principal } from '../auth/principal.js';
import type { ContainerLike } from '../container/container-like.js';
import { MethodNotAllowed, NotFound, withoutStack } from '../errors.js';
import type { BaseUriMatcher } from '../router/base-uri.js';
import type { Router } from '../router/router.js';
import type { RouteHandler, RouteInfo } from '../routes/route-definition.js';
import { type BodySource, Context } from './request-context.js';
import { type ErrorLogger, errorToResponse, type ResponseLike, resultToResponse } from './response.js';

export interface DispatchRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly readBody: BodySource;
  readonly req?: IncomingMessage;
}

export interface CompiledRoute {
  readonly info: RouteInfo;
  readonly handler: RouteHandler;
  /** Undefined for public routes, which skip authentication entirely. */
  readonly authenticate: ((ctx: Context) => Promise<Principal>) | undefined;
}

/** Lets an application render errors in its own shape (the default is the `{error:{code,message}}` envelope). */
export type ErrorRenderer = (
  error: unknown,
  request: { readonly method: string; readonly url: string; readonly headers: IncomingHttpHeaders },
) => ResponseLike | undefined;

export interface DispatcherOptions {
  readonly matchBaseUri: BaseUriMatcher;
  readonly versions: ReadonlyMap<number, Router<CompiledRoute>>;
  readonly container: ContainerLike;
  readonly bodyLimit: number;
  readonly exposeErrors: boolean;
  readonly logger: ErrorLogger;
  readonly renderError?: ErrorRenderer;
  /** Serve HEAD with the GET handler when no HEAD route is declared (default true). */
  readonly implicitHead: boolean;
  /** Answer OPTIONS with 204 and Allow when no OPTIONS route is declared (default true). */
  readonly implicitOptions: boolean;
}

function notFound(pathname: string): NotFound {
  return withoutStack(() => new NotFound(`Route ${pathname} does not exist.`));
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}

function allowHeader(methods: readonly string[], implicitHead: boolean, implicitOptions: boolean): string[] {
  const allowed = new Set(methods);
  if (implicitHead && allowed.has('GET')) allowed.add('HEAD');
  if (implicitOptions) allowed.add('OPTIONS');
  return [...allowed].sort();
}

export class Dispatcher {
  constructor(private readonly options: DispatcherOptions) {}

  dispatch(request: DispatchRequest): ResponseLike | Promise<ResponseLike> {
    const headOnly = request.method === 'HEAD';
    try {
      const url = request.url;
      const queryStart = url.indexOf('?');
      const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
      const located = this.options.matchBaseUri(pathname);
      const router = located === null ? undefined : this.options.versions.get(located.version);
      // Expected misses are returned, not thrown: unwinding an exception costs more than the rest of the request.
      if (located === null || router === undefined) return this.fail(notFound(pathname), request, headOnly);
      const path = located.path;
      let match = router.find(request.method, path);
      if (match === null && headOnly && this.options.implicitHead) match = router.find('GET', path);
      if (match === null) return this.miss(router, request, path, pathname);
      const route = match.value;
      const ctx = new Context(
        request.method,
        path,
        located.version,
        match.params,
        queryStart === -1 ? '' : url.slice(queryStart + 1),
        request.headers,
        { url, req: request.req },
        request.readBody,
        this.options.bodyLimit,
        this.options.container,
      );
      if (route.authenticate === undefined) return this.invoke(route, ctx, headOnly, request);
      return route.authenticate(ctx).then(
        (principal) => {
          ctx.auth = principal;
          return this.invoke(route, ctx, headOnly, request);
        },
        (error: unknown) => this.fail(error, request, headOnly),
      );
    } catch (error) {
      return this.fail(error, request, headOnly);
    }
  }

  private invoke(
    route: CompiledRoute,
    ctx: Context,
    headOnly: boolean,
    request: DispatchRequest,
  ): ResponseLike | Promise<ResponseLike> {
    let result: unknown;
    try {
      result = route.handler(ctx);
    } catch (error) {
      return this.finish(ctx, this.fail(error, request, headOnly));
    }
    if (isPromiseLike(result)) {
      return Promise.resolve(result).then(
        (value) => this.finish(ctx, this.respond(value, request, headOnly)),
        (error: unknown) => this.finish(ctx, this.fail(error, request, headOnly)),
      );
    }
    return this.finish(ctx, this.respond(result, request, headOnly));
  }

  private respond(result: unknown, request: DispatchRequest, headOnly: boolean): ResponseLike {
    try {
      return resultToResponse(result, headOnly);
    } catch (error) {
      return this.fail(error, request, headOnly);
    }
  }

  private finish(ctx: Context, response: ResponseLike): ResponseLike | Promise<ResponseLike> {
    const disposed = ctx.dispose();
    return disposed === undefined ? response : disposed.then(() => response);
  }

  private miss(router: Router<CompiledRoute>, request: DispatchRequest, path: string, pathname: string): ResponseLike {
    const declared = router.allowedMethods(path);
    const headOnly = request.method === 'HEAD';
    if (declared.length === 0) return this.fail(notFound(pathname), request, headOnly);
    const allowed = allowHeader(declared, this.options.implicitHead, this.options.implicitOptions);
    if (request.method === 'OPTIONS' && this.options.implicitOptions)
      return { status: 204, headers: { allow: allowed.join(', ') }, body: undefined };
    const message = `Method ${request.method} is not allowed on ${pathname}.`;
    return this.fail(
      withoutStack(() => new MethodNotAllowed(allowed, message)),
      request,
      headOnly,
    );
  }

  private fail(error: unknown, request: DispatchRequest, headOnly: boolean): ResponseLike {
    const rendered = this.options.renderError?.(error, request);
    if (rendered !== undefined) return headOnly ? { ...rendered, body: undefined } : rendered;
    return errorToResponse(error, this.options.exposeErrors, this.options.logger, headOnly);
  }
}
