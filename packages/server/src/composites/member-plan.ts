// The compiled form of a composite body: what each output member reads from the document, collection item or
// reference it is evaluated in. Built once per composite by compile-members.ts, evaluated by body-builder.ts.
import type { PropertyShape, ResourceModel } from '../model/index.js';

/**
 * Inside a referenced resource, a member reads either the reference object itself (`reference`: its key fields and
 * the target's id from its link) or the referenced document (`target`), which is then read from the store. Everywhere
 * else members read the object they are in (`reference` too).
 */
export type MemberSource = 'reference' | 'target';

export interface ValuePlan {
  readonly kind: 'value';
  readonly output: string;
  readonly source: MemberSource;
  /** `id`: the document's resource id (inside a reference, the referenced document's). */
  readonly read: 'id' | readonly string[];
  readonly shape: PropertyShape;
}

export interface ArrayPlan {
  readonly kind: 'array';
  readonly output: string;
  readonly source: MemberSource;
  readonly steps: readonly string[];
  readonly items: readonly MemberPlan[];
}

export interface ObjectPlan {
  readonly kind: 'object';
  /** Undefined when flattened into the parent. */
  readonly output: string | undefined;
  readonly source: MemberSource;
  readonly steps: readonly string[];
  readonly members: readonly MemberPlan[];
}

export interface ReferencePlan {
  readonly kind: 'reference';
  /** Undefined when flattened into the parent. */
  readonly output: string | undefined;
  readonly source: MemberSource;
  readonly steps: readonly string[];
  /** The referenced resource, when it is concrete (an abstract target allows only reference members). */
  readonly target: ResourceModel | undefined;
  /** The member naming the referenced document's concrete resource (`includeResourceSubtype`). */
  readonly subtypeOutput: string | undefined;
  readonly members: readonly MemberPlan[];
}

/** Filter of a linked collection: the linked resource's query field equals the value at `steps` of the document. */
export interface LinkFilter {
  readonly field: string;
  readonly steps: readonly string[];
}

export interface LinkedPlan {
  readonly kind: 'linked';
  readonly output: string;
  readonly source: MemberSource;
  readonly resource: ResourceModel;
  readonly filters: readonly LinkFilter[];
  readonly members: readonly MemberPlan[];
}

export type MemberPlan = ValuePlan | ArrayPlan | ObjectPlan | ReferencePlan | LinkedPlan;
