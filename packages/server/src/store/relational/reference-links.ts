// Adds `link` objects to the reference objects of a body, copying only the objects and arrays on the way to each
// reference so the caller's body is left untouched.

export interface ResourceLink {
  readonly rel: string;
  readonly href: string;
}

export interface LinkSite {
  /** Concrete path of the reference object, e.g. `$.schoolReference` or `$.classPeriods[1].classPeriodReference`. */
  readonly path: string;
  readonly link: ResourceLink;
}

/** An object or array, indexed by property name or position. */
export type Node = Record<string | number, unknown>;

/** `$.a[1].b` → ['a', 1, 'b']. */
export function stepsOf(path: string): (string | number)[] {
  const steps: (string | number)[] = [];
  for (const part of path.slice(2).split('.')) {
    const bracket = part.indexOf('[');
    if (bracket < 0) {
      steps.push(part);
      continue;
    }
    steps.push(part.slice(0, bracket));
    for (const index of part.slice(bracket + 1, -1).split('][')) steps.push(Number(index));
  }
  return steps;
}

function copyOf(node: unknown): Node {
  const copy: unknown = Array.isArray(node) ? [...node] : { ...(node as Node) };
  return copy as Node;
}

export function withLinks(body: Record<string, unknown>, sites: readonly LinkSite[]): Record<string, unknown> {
  if (sites.length === 0) return body;
  const root: Node = { ...body };
  const copies = new Set<unknown>([root]);
  for (const { path, link } of sites) {
    const steps = stepsOf(path);
    const last = steps.pop()!;
    let parent = root;
    for (const step of steps) {
      let child = parent[step];
      if (!copies.has(child)) {
        child = copyOf(child);
        copies.add(child);
        parent[step] = child;
      }
      parent = child as Node;
    }
    parent[last] = { ...(parent[last] as Node), link };
  }
  return root;
}
