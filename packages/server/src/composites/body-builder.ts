// Builds a composite body from a base document by its member plans: values, arrays and embedded objects of the
// document, referenced documents (read through their links), linked collections (read by the reference fields).
// Absent values, and arrays with no items, are left out.
import type { MemberPlan } from './member-plan.js';
import {
  filtersFrom,
  linkOf,
  valueAt,
  type CompositeReads,
  type DocumentView,
  type JsonObject,
} from './composite-reads.js';

/** Where members read: an object with, for documents and references, the id, and for references their target. */
interface Scope {
  readonly object: JsonObject;
  readonly id?: string;
  readonly target?: () => Promise<DocumentView | undefined>;
}

type Output = Record<string, unknown>;

const SCHEMA_OF_NAMESPACE: Readonly<Record<string, string>> = { 'ed-fi': 'edfi' };

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export class BodyBuilder {
  constructor(private readonly reads: CompositeReads) {}

  async document(plans: readonly MemberPlan[], document: DocumentView): Promise<Output> {
    const output: Output = {};
    await this.#members(plans, { object: document.body, id: document.id }, output);
    return output;
  }

  async #members(plans: readonly MemberPlan[], scope: Scope, output: Output): Promise<void> {
    for (const plan of plans) await this.#member(plan, scope, output);
  }

  async #scopeFor(plan: MemberPlan, scope: Scope): Promise<Scope | undefined> {
    if (plan.source === 'reference') return scope;
    const target = await scope.target?.();
    return target && { object: target.body, id: target.id };
  }

  async #member(plan: MemberPlan, outer: Scope, output: Output): Promise<void> {
    const scope = await this.#scopeFor(plan, outer);
    if (scope === undefined) return;
    switch (plan.kind) {
      case 'value': {
        const value = plan.read === 'id' ? scope.id : valueAt(scope.object, plan.read);
        if (value !== undefined && value !== null) output[plan.output] = value;
        return;
      }
      case 'array': {
        const items = valueAt(scope.object, plan.steps);
        if (!Array.isArray(items) || items.length === 0) return;
        const built: Output[] = [];
        for (const item of items as JsonObject[]) {
          const itemOutput: Output = {};
          await this.#members(plan.items, { object: item }, itemOutput);
          built.push(itemOutput);
        }
        output[plan.output] = built;
        return;
      }
      case 'object': {
        const object = valueAt(scope.object, plan.steps);
        if (!isObject(object)) return;
        await this.#nested(plan.output, output, (into) => this.#members(plan.members, { object }, into));
        return;
      }
      case 'reference': {
        const reference = valueAt(scope.object, plan.steps);
        if (!isObject(reference)) return;
        const link = linkOf(reference);
        const { target } = plan;
        const referenceScope: Scope = {
          object: reference,
          ...(link ? { id: link.id } : {}),
          target: async () => (link && target ? this.reads.document(target, link.id) : undefined),
        };
        await this.#nested(plan.output, output, async (into) => {
          if (plan.subtypeOutput !== undefined && link)
            into[plan.subtypeOutput] = `${SCHEMA_OF_NAMESPACE[link.namespace] ?? link.namespace}.${link.resourceName}`;
          await this.#members(plan.members, referenceScope, into);
        });
        return;
      }
      case 'linked': {
        const filters = filtersFrom(scope.object, plan.filters);
        if (filters === undefined) return;
        const linked = await this.reads.all(plan.resource, filters);
        if (linked.length === 0) return;
        const built: Output[] = [];
        for (const document of linked) built.push(await this.document(plan.members, document));
        output[plan.output] = built;
        return;
      }
    }
  }

  /** Members into a new object under `name`, or (flattened, no name) into the parent itself. */
  async #nested(name: string | undefined, output: Output, fill: (into: Output) => Promise<void>): Promise<void> {
    if (name === undefined) return fill(output);
    const nested: Output = {};
    await fill(nested);
    output[name] = nested;
  }
}
