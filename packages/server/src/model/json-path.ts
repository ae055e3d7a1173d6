// Parses the model's JSON path strings (`$.a.b[*].c`) into segments, once per path, for compiled accessors.
import type { JsonPath } from './types.js';

export interface PathSegment {
  /** Property name. */
  name: string;
  /** The property holds an array whose items the rest of the path applies to. */
  isArray: boolean;
}

export function parseJsonPath(path: JsonPath): PathSegment[] {
  if (path === '$') return [];
  if (!path.startsWith('$.')) throw new Error(`Not a model JSON path: ${path}`);
  return path
    .slice(2)
    .split('.')
    .map((part) =>
      part.endsWith('[*]') ? { name: part.slice(0, -3), isArray: true } : { name: part, isArray: false },
    );
}

/** `prefix` is `path` itself or one of its ancestors. */
export function isPathWithin(path: JsonPath, prefix: JsonPath): boolean {
  return path === prefix || path.startsWith(prefix + '.');
}

/** The node a path leads to in a nested shape or schema (objects' `properties`, arrays' `items`). */
export function nodeAtPath<T extends { properties?: Record<string, T>; items?: T }>(
  root: T,
  path: JsonPath,
): T | undefined {
  let node: T | undefined = root;
  for (const segment of parseJsonPath(path)) {
    node = node?.properties?.[segment.name];
    if (segment.isArray) node = node?.items;
  }
  return node;
}
