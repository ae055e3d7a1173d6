// Unique, deterministic operationIds: the declared one, else camelCase from method and path ('GET /users/{int:id}' → 'getUsersById').

import { ConfigurationError } from '../errors.js';
import type { RouteInfo } from '../routes/route-definition.js';

const PLACEHOLDER = /\{(?:[^{}:]+:)?([^{}:]+)\}/g;

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

export function deriveOperationId(route: RouteInfo): string {
  const words = route.path
    .replace(PLACEHOLDER, ' by $1 ')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '');
  return route.method.toLowerCase() + (words.length === 0 ? 'Root' : words.map(capitalise).join(''));
}

/** Adds an id to each entry, keeping the order; a derived id that is taken gets a numeric suffix (`getUsers2`). */
export function withOperationIds<E extends { readonly route: RouteInfo }>(
  entries: readonly E[],
): (E & { readonly operationId: string })[] {
  const declaredBy = new Map<string, RouteInfo>();
  for (const { route } of entries) {
    if (route.operationId === undefined) continue;
    const other = declaredBy.get(route.operationId);
    if (other !== undefined) {
      throw new ConfigurationError(
        `operationId "${route.operationId}" is declared twice: ${other.source} and ${route.source}.`,
      );
    }
    declaredBy.set(route.operationId, route);
  }
  const taken = new Set(declaredBy.keys());
  return entries.map((entry) => {
    if (entry.route.operationId !== undefined) return { ...entry, operationId: entry.route.operationId };
    const base = deriveOperationId(entry.route);
    let operationId = base;
    for (let suffix = 2; taken.has(operationId); suffix++) operationId = `${base}${suffix}`;
    taken.add(operationId);
    return { ...entry, operationId };
  });
}
