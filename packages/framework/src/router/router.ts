// Finds the route for a method and a path within one API version: static paths in a map, the rest in a segment trie.

import { ConfigurationError } from '../errors.js';
import type { ParameterDeclaration } from '../types.js';
import { priorityOf, type RoutePriority } from './route-priority.js';
import { parseTemplate, type ParamSegment } from './route-template.js';
import { SegmentTrie } from './route-trie.js';
import { lengthBit, spellingLengthBits } from './spelling-lengths.js';

export interface RouteMatch<T> {
  readonly value: T;
  readonly params: Record<string, string | number>;
}

export interface RouterOptions {
  /** Serve `/users/` as `/users` instead of answering 404. */
  readonly ignoreTrailingSlash?: boolean;
}

export interface AddRouteOptions {
  readonly parameters?: readonly ParameterDeclaration[];
  /** Where the route was declared, named in start-up errors. */
  readonly source?: string;
}

interface StaticRoute<T> {
  readonly label: string;
  /** Built once: a static route has no parameters, so every lookup can return the same frozen match. */
  readonly match: RouteMatch<T>;
}

class DynamicRoute<T> implements RoutePriority {
  readonly rank: number;
  readonly staticMask: string;
  readonly paramKinds: string;
  readonly order: number;

  constructor(
    readonly label: string,
    readonly value: T,
    readonly params: readonly ParamSegment[],
    priority: RoutePriority,
  ) {
    this.rank = priority.rank;
    this.staticMask = priority.staticMask;
    this.paramKinds = priority.paramKinds;
    this.order = priority.order;
  }
}

/** The params of a static route (and of a request not routed yet). */
export const NO_PARAMS: Record<string, string | number> = Object.freeze(Object.create(null) as Record<string, never>);

export class Router<T> {
  private readonly ignoreTrailingSlash: boolean;
  /** Lower-cased path, then method. */
  private readonly staticRoutes = new Map<string, Map<string, StaticRoute<T>>>();
  /** The lengths a static path can be spelled in: most paths of dynamic routes skip the static map. */
  private staticLengths = 0;
  private readonly dynamicRoutes = new SegmentTrie<DynamicRoute<T>>();
  private readonly methods = new Set<string>();
  private declared = 0;
  /** Parameter bounds of the latest lookup, read before it returns (see SegmentTrie.search). */
  private readonly bounds: number[] = [];

  constructor(options: RouterOptions = {}) {
    this.ignoreTrailingSlash = options.ignoreTrailingSlash ?? false;
  }

  /** Registers a route; throws a ConfigurationError for a malformed template or a duplicate method and path. */
  add(method: string, template: string, value: T, options: AddRouteOptions = {}): void {
    const upperMethod = method.toUpperCase();
    const label = `${upperMethod} ${template}${options.source === undefined ? '' : ` (${options.source})`}`;
    const path = this.ignoreTrailingSlash ? withoutTrailingSlash(template) : template;
    const segments = parseTemplate(path, options.parameters ?? [], label);
    const params = segments.filter((segment): segment is ParamSegment => segment.kind === 'param');
    if (params.length === 0) {
      this.addStatic(upperMethod, path.toLowerCase(), { label, match: Object.freeze({ value, params: NO_PARAMS }) });
    } else {
      const route = new DynamicRoute(label, value, params, priorityOf(segments, this.declared));
      const existing = this.dynamicRoutes.insert(segments, upperMethod, route);
      if (existing !== undefined) throw duplicateRoute(label, existing.label);
    }
    this.declared++;
    this.methods.add(upperMethod);
  }

  /** The route for an upper-case method and a path without query string, or null; params are percent-decoded. */
  find(method: string, path: string): RouteMatch<T> | null {
    const target = this.ignoreTrailingSlash ? withoutTrailingSlash(path) : path;
    const staticRoute = this.findStatic(target)?.get(method);
    if (staticRoute !== undefined) return staticRoute.match;
    if (!target.startsWith('/')) return null;
    const bounds = this.bounds;
    const route = this.dynamicRoutes.search(method, target, bounds);
    if (route === null) return null;
    const params = new Params();
    const segments = route.params;
    for (let index = 0; index < segments.length; index++) {
      const { name, matcher } = segments[index]!;
      params[name] = matcher.value(target, bounds[2 * index]!, bounds[2 * index + 1]!);
    }
    return { value: route.value, params };
  }

  /** The methods with a route for this path, sorted; only worth asking after `find` missed (405 versus 404). */
  allowedMethods(path: string): string[] {
    const target = this.ignoreTrailingSlash ? withoutTrailingSlash(path) : path;
    const methods = new Set(this.findStatic(target)?.keys());
    if (target.startsWith('/')) this.dynamicRoutes.collectMethods(target, methods);
    return methods.size === 0 ? [] : [...methods].sort();
  }

  /** Most paths arrive lower-case already, so the lower-cased copy is made only on a miss. */
  private findStatic(path: string): Map<string, StaticRoute<T>> | undefined {
    if ((this.staticLengths & lengthBit(path.length)) === 0) return undefined;
    const exact = this.staticRoutes.get(path);
    if (exact !== undefined) return exact;
    const lower = path.toLowerCase();
    return lower === path ? undefined : this.staticRoutes.get(lower);
  }

  private addStatic(method: string, key: string, route: StaticRoute<T>): void {
    let byMethod = this.staticRoutes.get(key);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.staticRoutes.set(key, byMethod);
      this.staticLengths |= spellingLengthBits(key);
    }
    const existing = byMethod.get(method);
    if (existing !== undefined) throw duplicateRoute(route.label, existing.label);
    byMethod.set(method, route);
  }
}

/**
 * The params object of a dynamic route: nothing inherited (`params.toString` and `params.__proto__` are undefined), yet
 * a fast-property object; `Object.create(null)` objects live in dictionary mode, about three times slower to build.
 */
const Params = class {} as unknown as new () => Record<string, string | number>;
Object.setPrototypeOf(Params.prototype, null);
delete (Params.prototype as { constructor?: unknown }).constructor;

function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function duplicateRoute(label: string, existingLabel: string): ConfigurationError {
  return new ConfigurationError(`Duplicate route: ${label} has the same method and path as ${existingLabel}.`);
}
