// createServer: discovers and validates every route at start-up, then serves them over node:http or inject().

import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AuthOptions, createAuthenticator } from './auth/authenticator.js';
import { NO_SCOPES } from './auth/principal.js';
import type { ContainerLike } from './container/container-like.js';
import { Container } from './container/container.js';
import { discoverHandlerModules, type HandlerModule } from './discovery/discover.js';
import { ConfigurationError } from './errors.js';
import { DEFAULT_BODY_LIMIT } from './http/body.js';
import { type CompiledRoute, Dispatcher, type ErrorRenderer, type RequestHook } from './http/dispatch.js';
import { inject, type InjectRequest, type InjectResponse } from './http/inject.js';
import { createNodeHandler, type ResponseObserver } from './http/node-adapter.js';
import { consoleLogger, type Logger } from './logger.js';
import { generateOpenApi, type OpenApiDocument, type OpenApiOptions } from './openapi/generate.js';
import { compileBaseUri } from './router/base-uri.js';
import { Router } from './router/router.js';
import { collectRoutes } from './routes/collect.js';
import { route, routes, type RouteBuilder } from './routes/route.js';
import type { DefaultAuthOf, IdentitiesOf } from './auth/identities.js';
import type { AuthScheme } from './types.js';
import type { RouteDefinition, RouteInfo } from './routes/route-definition.js';

export interface ServerOptions extends AuthOptions {
  /**
   * Extracts `Version` and `Path` from the URL; a RegExp or a PCRE-style string, matched with its own flags. Default
   * `^/api/v(?<Version>[0-9]+)(?<Path>/.*)$`, case-insensitive like the routes.
   */
  readonly baseUriRegex?: RegExp | string;
  /** Folder holding one sub-folder per version (`V1`, `V2`, …) of handler modules. */
  readonly controllerDirectory?: string | URL;
  /** Pre-imported handler modules (a build-time manifest); skips the directory scan. */
  readonly routes?: readonly HandlerModule[];
  /** Root label of the handlers, used as the OpenAPI title when none is given. */
  readonly namespace?: string;
  readonly container?: ContainerLike;
  /** Authentication for routes that declare none. Default `['bearer']` (fail closed). */
  readonly defaultAuth?: readonly AuthScheme[];
  /** Largest accepted request body in bytes. Default 1 MiB. */
  readonly bodyLimit?: number;
  readonly ignoreTrailingSlash?: boolean;
  /** Show the messages of unexpected errors to clients (development only). */
  readonly exposeErrors?: boolean;
  readonly logger?: Logger;
  /** Called after every response written by `handler` (request logs, metrics); not called for `inject`. */
  readonly onResponse?: ResponseObserver;
  /** Import TypeScript handler files; defaults to whether a TypeScript loader is active. */
  readonly typescript?: boolean;
  /**
   * Runs before routing for every request whose URL names a served version, e.g. to authenticate first
   * (`ctx.authenticate([...])`) so that a 401 comes before a 404 or 405; throwing answers with that error.
   */
  readonly onRequest?: RequestHook;
  /** Renders errors in an application-specific shape; return undefined to use the default envelope. */
  readonly renderError?: ErrorRenderer;
  /** Serve HEAD with the GET handler where no HEAD route is declared. Default true. */
  readonly implicitHead?: boolean;
  /** Answer OPTIONS with 204 and `Allow` where no OPTIONS route is declared. Default true. */
  readonly implicitOptions?: boolean;
  readonly openApi?: Omit<OpenApiOptions, 'pathPrefix'> & {
    readonly pathPrefix?: (version: number) => string;
    /** Serve each version's document publicly at this path (e.g. `/openapi.json`). */
    readonly route?: string;
  };
}

export interface ApiServer<O = ServerOptions> {
  /** Route factories whose handlers see `ctx.identity` typed from this server's verifier and repository. */
  readonly route: RouteBuilder<IdentitiesOf<O>, DefaultAuthOf<O>>;
  /** A node:http request listener, to mount inside an existing server. */
  readonly handler: ReturnType<typeof createNodeHandler>;
  listen(port: number, host?: string): Promise<AddressInfo>;
  close(): Promise<void>;
  inject(request: InjectRequest): Promise<InjectResponse>;
  routes(): readonly RouteInfo[];
  /** Registers routes programmatically (e.g. generated from metadata) for one version. */
  addRoutes(version: number, routes: readonly RouteDefinition[]): void;
  generateOpenApi(version: number): OpenApiDocument;
}

class FrameworkServer implements ApiServer {
  readonly route = routes<ServerOptions>();
  readonly handler: ReturnType<typeof createNodeHandler>;
  private readonly versions = new Map<number, Router<CompiledRoute>>();
  private readonly registered: RouteInfo[] = [];
  private readonly dispatcher: Dispatcher;
  private readonly authenticator: ReturnType<typeof createAuthenticator>;
  private httpServer: Server | undefined;

  constructor(
    private readonly options: ServerOptions,
    container: ContainerLike,
  ) {
    const logger = options.logger ?? consoleLogger;
    this.authenticator = createAuthenticator({ ...options, logger });
    this.dispatcher = new Dispatcher({
      matchBaseUri: compileBaseUri(options.baseUriRegex),
      versions: this.versions,
      container,
      bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
      exposeErrors: options.exposeErrors ?? false,
      logger,
      renderError: options.renderError,
      onRequest: options.onRequest,
      authenticate: (schemes, ctx) => this.authenticator.authenticate(schemes, NO_SCOPES, ctx),
      implicitHead: options.implicitHead ?? true,
      implicitOptions: options.implicitOptions ?? true,
    });
    this.handler = createNodeHandler(this.dispatcher, options.onResponse);
  }

  addRoutes(version: number, routes: readonly RouteDefinition[]): void {
    for (const definition of routes) {
      for (const target of definition.versions ?? [version]) this.register(target, definition);
    }
  }

  private register(version: number, definition: RouteDefinition): void {
    if (!Number.isSafeInteger(version) || version < 0) {
      throw new ConfigurationError(`Invalid API version ${version} for ${definition.method} ${definition.path}.`);
    }
    const auth = definition.auth ?? this.options.defaultAuth ?? ['bearer'];
    const scopes = definition.scopes ?? [];
    const info: RouteInfo = {
      version,
      method: definition.method,
      path: definition.path,
      auth,
      scopes,
      parameters: definition.parameters ?? [],
      source: definition.source ?? `${definition.method} ${definition.path}`,
      summary: definition.summary,
      operationId: definition.operationId,
      tags: definition.tags,
    };
    const isPublic = auth.length === 1 && auth[0] === 'none' && scopes.length === 0;
    const compiled: CompiledRoute = {
      info,
      handler: definition.handler as CompiledRoute['handler'],
      authenticate: isPublic ? undefined : this.authenticator.compile(auth, scopes),
    };
    let router = this.versions.get(version);
    if (router === undefined) {
      router = new Router<CompiledRoute>({ ignoreTrailingSlash: this.options.ignoreTrailingSlash });
      this.versions.set(version, router);
    }
    router.add(definition.method, definition.path, compiled, { parameters: info.parameters, source: info.source });
    this.registered.push(info);
  }

  routes(): readonly RouteInfo[] {
    return this.registered;
  }

  /** Adds a public route per version answering that version's OpenAPI document. */
  serveOpenApi(path: string): void {
    for (const version of [...this.versions.keys()]) {
      let document: OpenApiDocument | undefined;
      this.addRoutes(version, [
        route.get(
          path,
          { auth: ['none'], summary: 'OpenAPI document' },
          () => (document ??= this.generateOpenApi(version)),
        ),
      ]);
    }
  }

  inject(request: InjectRequest): Promise<InjectResponse> {
    return inject(this.dispatcher, request);
  }

  generateOpenApi(version: number): OpenApiDocument {
    const { pathPrefix, route: _route, ...openApi } = this.options.openApi ?? {};
    const prefix = pathPrefix?.(version) ?? (this.options.baseUriRegex === undefined ? `/api/v${version}` : '');
    return generateOpenApi(this.registered, version, {
      title: this.options.namespace,
      version: String(version),
      ...openApi,
      pathPrefix: prefix,
    });
  }

  listen(port: number, host?: string): Promise<AddressInfo> {
    const server = createHttpServer({ keepAliveTimeout: 72_000 }, this.handler);
    this.httpServer = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve(server.address() as AddressInfo);
      });
    });
  }

  close(): Promise<void> {
    const server = this.httpServer;
    if (server === undefined) return Promise.resolve();
    return new Promise((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      server.closeIdleConnections();
    });
  }
}

/** Creates a server; `ctx.identity` of `server.route` handlers is typed from the options' verifier and repository. */
export async function createServer<const O extends ServerOptions = ServerOptions>(
  options: O = {} as O,
): Promise<ApiServer<O>> {
  const container = options.container ?? new Container();
  const server = new FrameworkServer(options, container);
  const logger = options.logger ?? consoleLogger;
  const modules =
    options.routes ??
    (options.controllerDirectory === undefined
      ? []
      : await discoverHandlerModules(options.controllerDirectory, {
          typescript: options.typescript,
          onIgnoredFile: (path) => {
            if (process.env.NODE_ENV !== 'production') logger.warn(`Ignoring ${path}: it is not inside a V<n> folder.`);
          },
        }));
  for (const module of modules)
    server.addRoutes(module.version, collectRoutes(module.exports, module.source, container));
  if (options.openApi?.route !== undefined) server.serveOpenApi(options.openApi.route);
  // The same object: O only narrows the compile-time view of `route` to these options.
  return server as unknown as ApiServer<O>;
}
