// Compiles a model JSON path into closures that read a document without parsing the path at call time.
import { parseJsonPath } from '../json-path.js';
import type { JsonPath } from '../types.js';

/** Receives each value found and its concrete path (array positions filled in, e.g. `$.items[2].code`). */
export type ValueVisitor = (value: unknown, concretePath: string) => void;
export type PathCollector = (document: unknown, visit: ValueVisitor) => void;
export type PathGetter = (document: unknown) => unknown;

type Step = (node: unknown, concretePath: string, visit: ValueVisitor) => void;

function propertyOf(node: unknown, name: string): unknown {
  return typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[name] : undefined;
}

/** Visits every non-null value at `path`, descending into every item of each `[*]` array. */
export function compilePathCollector(path: JsonPath): PathCollector {
  let step: Step = (node, concretePath, visit) => visit(node, concretePath);
  for (const segment of parseJsonPath(path).reverse()) {
    const next = step;
    const { name } = segment;
    const suffix = `.${name}`;
    step = segment.isArray
      ? (node, concretePath, visit) => {
          const items = propertyOf(node, name);
          if (!Array.isArray(items)) return;
          const base = concretePath + suffix;
          for (let index = 0; index < items.length; index++) next(items[index], `${base}[${index}]`, visit);
        }
      : (node, concretePath, visit) => {
          const value = propertyOf(node, name);
          if (value !== undefined && value !== null) next(value, concretePath + suffix, visit);
        };
  }
  const root = step;
  return (document, visit) => root(document, '$', visit);
}

/** Reads the single value at a path without arrays (`$.a.b`); undefined when absent. */
export function compilePathGetter(path: JsonPath): PathGetter {
  const names = parseJsonPath(path).map((segment) => {
    if (segment.isArray) throw new Error(`Path ${path} crosses an array; use a collector`);
    return segment.name;
  });
  if (names.length === 1) {
    const [name] = names as [string];
    return (document) => propertyOf(document, name);
  }
  return (document) => {
    let node: unknown = document;
    for (const name of names) node = propertyOf(node, name);
    return node;
  };
}
