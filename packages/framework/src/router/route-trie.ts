// The dynamic routes of one router as a segment trie, searched depth-first with backtracking for the best match.

import { outranks, type RoutePriority } from './route-priority.js';
import type { TemplateSegment } from './route-template.js';
import type { SegmentMatcher } from './segment-matchers.js';

class TrieNode<R> {
  readonly staticChildren = new Map<string, TrieNode<R>>();
  /** Sorted by matcher order (int, ulid, pattern, mixed, plain), then insertion. */
  readonly paramEdges: ParamEdge<R>[] = [];
  /** Routes ending here, by method. */
  routes: Map<string, R> | null = null;
  /** The best rank of the routes ending at or below this node: a branch that cannot beat the best match is skipped. */
  maxRank = -1;
}

interface ParamEdge<R> {
  readonly matcher: SegmentMatcher;
  readonly child: TrieNode<R>;
}

/**
 * The state of a lookup. Lookups run synchronously to the end and matchers call nothing outside the router, so one
 * instance per trie serves every lookup, reset at its start: no objects or arrays per request.
 */
class Search<R> {
  method = '';
  path = '';
  best: R | null = null;
  /** Parameter bounds along the branch being walked. */
  readonly bounds: number[] = [];
  /** Where the best match's bounds are copied. */
  bestBounds: number[] = [];
}

export class SegmentTrie<R extends RoutePriority> {
  private readonly root = new TrieNode<R>();
  private readonly state = new Search<R>();

  /** Adds a route; returns the route already registered for this method and segment shape instead, if any. */
  insert(segments: readonly TemplateSegment[], method: string, route: R): R | undefined {
    let node = this.root;
    node.maxRank = Math.max(node.maxRank, route.rank);
    for (const segment of segments) {
      node = segment.kind === 'static' ? staticChild(node, segment.key) : paramChild(node, segment.matcher);
      node.maxRank = Math.max(node.maxRank, route.rank);
    }
    node.routes ??= new Map();
    const existing = node.routes.get(method);
    if (existing !== undefined) return existing;
    node.routes.set(method, route);
    return undefined;
  }

  /** Adds the methods of every route matching `path` (which must start with `/`): those `search` finds for some method. */
  collectMethods(path: string, into: Set<string>): void {
    collect(this.root, path, 1, into);
  }

  /**
   * The best route for `method` and `path` (which must start with `/`), or null; `bounds` receives the start and end
   * offsets in the path of each parameter segment, in order: `[start0, end0, start1, end1, …]`.
   */
  search(method: string, path: string, bounds: number[]): R | null {
    const search = this.state;
    search.method = method;
    search.path = path;
    search.best = null;
    search.bestBounds = bounds;
    walk(this.root, 1, 0, search);
    const best = search.best;
    search.best = null;
    search.path = '';
    return best;
  }
}

function staticChild<R>(node: TrieNode<R>, key: string): TrieNode<R> {
  let child = node.staticChildren.get(key);
  if (child === undefined) {
    child = new TrieNode<R>();
    node.staticChildren.set(key, child);
  }
  return child;
}

function paramChild<R>(node: TrieNode<R>, matcher: SegmentMatcher): TrieNode<R> {
  const edges = node.paramEdges;
  const existing = edges.find((edge) => edge.matcher.key === matcher.key);
  if (existing !== undefined) return existing.child;
  const edge = { matcher, child: new TrieNode<R>() };
  const before = edges.findIndex((other) => other.matcher.order > matcher.order);
  edges.splice(before === -1 ? edges.length : before, 0, edge);
  return edge.child;
}

/** Matches the segment starting at `start` against the children of `node`. */
function walk<R extends RoutePriority>(node: TrieNode<R>, start: number, paramCount: number, search: Search<R>): void {
  const path = search.path;
  const slash = path.indexOf('/', start);
  const end = slash === -1 ? path.length : slash;
  if (node.staticChildren.size !== 0) {
    const child = findStaticChild(node.staticChildren, path.slice(start, end));
    if (child !== undefined) enter(child, slash, paramCount, search);
  }
  const boundsIndex = 2 * paramCount;
  for (const edge of node.paramEdges) {
    if (!edge.matcher.matches(path, start, end)) continue;
    search.bounds[boundsIndex] = start;
    search.bounds[boundsIndex + 1] = end;
    enter(edge.child, slash, paramCount + 1, search);
  }
}

/** Continues after the segment ending at `slash` (-1: it was the last one). */
function enter<R extends RoutePriority>(node: TrieNode<R>, slash: number, paramCount: number, search: Search<R>): void {
  if (search.best !== null && search.best.rank > node.maxRank) return;
  if (slash !== -1) {
    walk(node, slash + 1, paramCount, search);
    return;
  }
  const route = node.routes?.get(search.method);
  if (route !== undefined && (search.best === null || outranks(route, search.best))) {
    search.best = route;
    for (let index = 0; index < 2 * paramCount; index++) search.bestBounds[index] = search.bounds[index]!;
  }
}

function collect<R>(node: TrieNode<R>, path: string, start: number, into: Set<string>): void {
  const slash = path.indexOf('/', start);
  const end = slash === -1 ? path.length : slash;
  if (node.staticChildren.size !== 0) {
    const child = findStaticChild(node.staticChildren, path.slice(start, end));
    if (child !== undefined) collectBelow(child, path, slash, into);
  }
  for (const edge of node.paramEdges) {
    if (edge.matcher.matches(path, start, end)) collectBelow(edge.child, path, slash, into);
  }
}

function collectBelow<R>(node: TrieNode<R>, path: string, slash: number, into: Set<string>): void {
  if (slash !== -1) collect(node, path, slash + 1, into);
  else if (node.routes !== null) for (const method of node.routes.keys()) into.add(method);
}

function findStaticChild<R>(children: Map<string, TrieNode<R>>, segment: string): TrieNode<R> | undefined {
  const exact = children.get(segment);
  if (exact !== undefined) return exact;
  const lower = segment.toLowerCase();
  return lower === segment ? undefined : children.get(lower);
}
