// Turns the exports of a handler module (route.* definitions and decorated controller classes) into route definitions.

import type { ContainerLike, Constructor } from '../container/container-like.js';
import { routeMetaOf } from './decorators.js';
import { isDeclaredRoute } from './route.js';
import type { RouteDefinition, RouteHandler } from './route-definition.js';

function ownMethodNames(prototype: object): string[] {
  const names: string[] = [];
  for (
    let current = prototype;
    current !== Object.prototype && current !== null;
    current = Object.getPrototypeOf(current)
  ) {
    for (const name of Object.getOwnPropertyNames(current)) {
      if (name !== 'constructor' && !names.includes(name)) names.push(name);
    }
  }
  return names;
}

function isController(value: unknown): value is Constructor<Record<string, unknown>> {
  if (typeof value !== 'function' || typeof value.prototype !== 'object' || value.prototype === null) return false;
  const prototype = value.prototype as Record<string, unknown>;
  return ownMethodNames(prototype).some(
    (name) => routeMetaOf(Object.getOwnPropertyDescriptor(prototype, name)?.value ?? prototype[name]) !== undefined,
  );
}

function controllerRoutes(
  controller: Constructor<Record<string, unknown>>,
  exportName: string,
  source: string,
  container: ContainerLike,
): RouteDefinition[] {
  const instance = container.get(controller);
  const routes: RouteDefinition[] = [];
  for (const name of ownMethodNames(controller.prototype as object)) {
    const method = instance[name];
    const meta = routeMetaOf(method);
    if (meta === undefined || typeof method !== 'function') continue;
    const handler = (method as RouteHandler).bind(instance) as RouteHandler;
    for (const declared of meta.routes) {
      const options = declared.options;
      routes.push({
        ...options,
        method: declared.method,
        path: declared.path,
        handler,
        auth: meta.auth ?? options.auth,
        scopes: [...(options.scopes ?? []), ...meta.scopes],
        parameters: [...(options.parameters ?? []), ...meta.parameters],
        source: `${source} ${exportName}.${name}`,
      });
    }
  }
  return routes;
}

/** Every route a module exports, in source order: route.* definitions and the methods of decorated classes. */
export function collectRoutes(
  exports: Readonly<Record<string, unknown>>,
  source: string,
  container: ContainerLike,
): RouteDefinition[] {
  const routes: RouteDefinition[] = [];
  for (const [exportName, value] of Object.entries(exports)) {
    if (isDeclaredRoute(value)) {
      routes.push({ ...value, source: value.source ?? `${source} ${exportName}` });
    } else if (Array.isArray(value)) {
      value
        .filter(isDeclaredRoute)
        .forEach((definition, index) =>
          routes.push({ ...definition, source: definition.source ?? `${source} ${exportName}[${index}]` }),
        );
    } else if (isController(value)) {
      routes.push(...controllerRoutes(value, exportName, source, container));
    }
  }
  return routes;
}
