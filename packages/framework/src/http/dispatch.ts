// The request pipeline: version and path from the URL, onRequest, route lookup, authentication, handler, response.

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { ContainerLike } from '../container/container-like.js';
import { MethodNotAllowed, NotFound, withoutStack } from '../errors.js';
import type { BaseUriMatcher } from '../router/base-uri.js';
import { NO_PARAMS, type Router } from '../router/router.js';
import type { RouteHandler, RouteInfo } from '../routes/route-definition.js';
import type { AuthScheme, IncomingRequestContext, Principal } from '../types.js';
import { type BodySource, Context, type ContextServices } from './request-context.js';
import {
  type ErrorLogger,
  errorToResponse,
  notFoundResponse,
  type ResponseLike,
  resultToResponse,
} from './response.js';

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
  readonly authenticate: ((ctx: Context) => Principal | Promise<Principal>) | undefined;
}

/** Lets an application render errors in its own shape (the default is the `{error:{code,message}}` envelope). */
export type ErrorRenderer = (
  error: unknown,
  request: { readonly method: string; readonly url: string; readonly headers: IncomingHttpHeaders },
) => ResponseLike | undefined;

/** Runs before routing for every request whose URL names a served version; throwing answers with that error. */
export type RequestHook = (ctx: IncomingRequestContext) => void | Promise<void>;

export interface DispatcherOptions {
  readonly matchBaseUri: BaseUriMatcher;
  readonly versions: ReadonlyMap<number, Router<CompiledRoute>>;
  readonly container: ContainerLike;
  readonly bodyLimit: number;
  readonly exposeErrors: boolean;
  readonly logger: ErrorLogger;
  readonly renderError?: ErrorRenderer;
  readonly onRequest?: RequestHook;
  /** Runs an authentication chain for `ctx.authenticate` in onRequest. */
  readonly authenticate: (schemes: readonly AuthScheme[], ctx: Context) => Promise<Principal>;
  /** Serve HEAD with the GET handler when no HEAD route is declared (default true). */
  readonly implicitHead: boolean;
  /** Answer OPTIONS with 204 and Allow when no OPTIONS route is declared (default true). */
  readonly implicitOptions: boolean;
}

function notFoundMessage(pathname: string): string {
  return `Route ${pathname} does not exist.`;
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
  private readonly services: ContextServices;

  constructor(private readonly options: DispatcherOptions) {
    this.services = { bodyLimit: options.bodyLimit, container: options.container, authenticate: options.authenticate };
  }

  dispatch(request: DispatchRequest): ResponseLike | Promise<ResponseLike> {
    const headOnly = request.method === 'HEAD';
    try {
      const url = request.url;
      const queryStart = url.indexOf('?');
      const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
      const located = this.options.matchBaseUri(pathname);
      const router = located === null ? undefined : this.options.versions.get(located.version);
      // Expected misses are returned, not thrown: unwinding an exception costs more than the rest of the request.
      if (located === null || router === undefined) return this.notFound(pathname, request, headOnly);
      const search = queryStart === -1 ? '' : url.slice(queryStart + 1);
      if (this.options.onRequest !== undefined) {
        const ctx = this.context(request, located.path, located.version, NO_PARAMS, search);
        return this.hookThenRoute(this.options.onRequest, ctx, router, request, pathname);
      }
      const path = located.path;
      const match = this.find(router, request.method, path, headOnly);
      if (match === null) return this.miss(router, request, path, pathname);
      const ctx = this.context(request, path, located.version, match.params, search);
      return this.run(match.value, ctx, headOnly, request);
    } catch (error) {
      return this.fail(error, request, headOnly);
    }
  }

  private context(
    request: DispatchRequest,
    path: string,
    version: number,
    params: Record<string, string | number>,
    search: string,
  ): Context {
    return new Context(
      request.method,
      path,
      version,
      params,
      search,
      request.headers,
      request.url,
      request.req,
      request.readBody,
      this.services,
    );
  }

  private find(router: Router<CompiledRoute>, method: string, path: string, headOnly: boolean) {
    const match = router.find(method, path);
    return match === null && headOnly && this.options.implicitHead ? router.find('GET', path) : match;
  }

  private hookThenRoute(
    hook: RequestHook,
    ctx: Context,
    router: Router<CompiledRoute>,
    request: DispatchRequest,
    pathname: string,
  ): ResponseLike | Promise<ResponseLike> {
    const headOnly = request.method === 'HEAD';
    const routeIt = (): ResponseLike | Promise<ResponseLike> => {
      // Routing can throw (a malformed percent-encoding is 400); after an async hook no outer catch is left.
      let match: ReturnType<Dispatcher['find']>;
      try {
        match = this.find(router, request.method, ctx.path, headOnly);
        if (match === null) return this.finish(ctx, this.miss(router, request, ctx.path, pathname));
      } catch (error) {
        return this.finish(ctx, this.fail(error, request, headOnly));
      }
      ctx.params = match.params;
      return this.run(match.value, ctx, headOnly, request);
    };
    const hooked = hook(ctx);
    if (!isPromiseLike(hooked)) return routeIt();
    return Promise.resolve(hooked).then(routeIt, (error: unknown) =>
      this.finish(ctx, this.fail(error, request, headOnly)),
    );
  }

  /** Authenticates (unless the route is public) and invokes the handler. */
  private run(
    route: CompiledRoute,
    ctx: Context,
    headOnly: boolean,
    request: DispatchRequest,
  ): ResponseLike | Promise<ResponseLike> {
    if (route.authenticate === undefined) return this.invoke(route, ctx, headOnly, request);
    const principal = route.authenticate(ctx);
    if (principal instanceof Promise) {
      return principal.then(
        (settled) => {
          ctx.auth = settled;
          return this.invoke(route, ctx, headOnly, request);
        },
        (error: unknown) => this.finish(ctx, this.fail(error, request, headOnly)),
      );
    }
    ctx.auth = principal;
    return this.invoke(route, ctx, headOnly, request);
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
    if (declared.length === 0) return this.notFound(pathname, request, headOnly);
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

  /** Without an application renderer the envelope is written directly: an error object costs more than the rest. */
  private notFound(pathname: string, request: DispatchRequest, headOnly: boolean): ResponseLike {
    if (this.options.renderError === undefined) return notFoundResponse(notFoundMessage(pathname), headOnly);
    return this.fail(
      withoutStack(() => new NotFound(notFoundMessage(pathname))),
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
