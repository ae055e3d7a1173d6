// TypeScript 5 standard decorators (@Get, @Auth, @ApiScope, @Parameter, …) recording route metadata per method.

import type { AuthScheme, HttpMethod, ParameterDeclaration, RequestContext } from '../types.js';
import type { ParamsOf } from './path-params.js';
import type { RouteOptions } from './route-definition.js';

// tsc's emit passes `context.metadata === undefined` on Node 20 without this; tsx falls back to the same symbol.
(Symbol as { metadata?: symbol }).metadata ??= Symbol.for('Symbol.metadata');

interface DeclaredMethodRoute {
  readonly method: HttpMethod;
  readonly path: string;
  readonly options: RouteOptions;
}

export interface MethodRouteMeta {
  readonly routes: DeclaredMethodRoute[];
  auth: AuthScheme[] | undefined;
  readonly scopes: string[];
  readonly parameters: ParameterDeclaration[];
}

const metadataByFunction = new WeakMap<object, MethodRouteMeta>();

/** The routes declared on a class method by decorators, if any. */
export function routeMetaOf(method: unknown): MethodRouteMeta | undefined {
  return typeof method === 'function' ? metadataByFunction.get(method) : undefined;
}

function metaFor(method: object): MethodRouteMeta {
  let meta = metadataByFunction.get(method);
  if (meta === undefined) {
    meta = { routes: [], auth: undefined, scopes: [], parameters: [] };
    metadataByFunction.set(method, meta);
  }
  return meta;
}

/** Supports both the standard `(method, context)` call and the legacy `(target, key, descriptor)` call. */
function decoratedFunction(args: readonly unknown[]): object {
  const [first, second, third] = args;
  if (typeof second === 'string' || typeof second === 'symbol') {
    const descriptor = third as PropertyDescriptor | undefined;
    if (typeof descriptor?.value !== 'function') throw new TypeError('Route decorators apply to methods only.');
    return descriptor.value as object;
  }
  if (typeof first !== 'function') throw new TypeError('Route decorators apply to methods only.');
  return first;
}

type RouteMethod<This, P extends string> = (this: This, ctx: RequestContext<ParamsOf<P>>) => unknown;

function routeDecorator(method: HttpMethod) {
  return <P extends string>(path: P, options: RouteOptions = {}) =>
    <This>(
      ...args: [target: RouteMethod<This, P>, context: ClassMethodDecoratorContext<This, RouteMethod<This, P>>]
    ): void => {
      // Decorators apply bottom-up; unshift keeps stacked route declarations in source order.
      metaFor(decoratedFunction(args)).routes.unshift({ method, path, options });
    };
}

export const Get = routeDecorator('GET');
export const Post = routeDecorator('POST');
export const Put = routeDecorator('PUT');
export const Patch = routeDecorator('PATCH');
export const Delete = routeDecorator('DELETE');
export const Head = routeDecorator('HEAD');
export const Options = routeDecorator('OPTIONS');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the constraint ClassMethodDecoratorContext itself uses
type AnyMethodDecorator = <This, F extends (this: This, ...args: any) => unknown>(
  target: F,
  context: ClassMethodDecoratorContext<This, F>,
) => void;

function methodDecorator(apply: (meta: MethodRouteMeta) => void): AnyMethodDecorator {
  return (...args: unknown[]) => {
    apply(metaFor(decoratedFunction(args)));
  };
}

/** Accepted authentication methods, tried in the order written (stacked @Auth decorators keep source order). */
export function Auth(...schemes: AuthScheme[]): AnyMethodDecorator {
  return methodDecorator((meta) => {
    meta.auth = [...schemes, ...(meta.auth ?? [])];
  });
}

/** Scopes the caller must all hold. */
export function ApiScope(...scopes: string[]): AnyMethodDecorator {
  return methodDecorator((meta) => {
    meta.scopes.unshift(...scopes);
  });
}

/** An OpenAPI path parameter declaration giving a `{name}` placeholder a pattern or integer type. */
export function Parameter(declaration: ParameterDeclaration): AnyMethodDecorator {
  return methodDecorator((meta) => {
    meta.parameters.unshift(declaration);
  });
}
