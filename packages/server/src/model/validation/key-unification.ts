// Key unification (contract §7.1, §7.2): values the ODS stores in one column must agree wherever the document supplies
// them. Groups come from the model's equality constraints; values are compared within one instance of the group's
// shallowest collection scope (the root, or one collection item), as one relational row holds them.
import {
  compilePathCollector,
  parseJsonPath,
  type PathSegment,
  type EqualityConstraint,
  type JsonPath,
  type PathCollector,
  type ResourceModel,
} from '../index.js';
import { messages } from './messages.js';
import type { ValidationErrorsBuilder } from './validation-errors-builder.js';
import type { JsonObject } from './validation-result.js';

/** Paths whose values must all be equal, in constraint order. */
function unificationGroups(constraints: readonly EqualityConstraint[]): JsonPath[][] {
  const groups: JsonPath[][] = [];
  const groupOf = new Map<JsonPath, JsonPath[]>();
  for (const { sourcePath, targetPath } of constraints) {
    const source = groupOf.get(sourcePath);
    const target = groupOf.get(targetPath);
    if (source && target && source !== target) {
      source.push(...target);
      for (const path of target) groupOf.set(path, source);
      groups.splice(groups.indexOf(target), 1);
      continue;
    }
    const group = source ?? target ?? [];
    if (group.length === 0) groups.push(group);
    for (const path of [sourcePath, targetPath]) {
      if (!group.includes(path)) group.push(path);
      groupOf.set(path, group);
    }
  }
  return groups;
}

/** One value of a unification group as found in a document. */
export interface UnifiedValue {
  /** Model path of the group member it was read from. */
  readonly memberPath: JsonPath;
  /** Concrete path, e.g. `$.items[2].assessmentItemReference.namespace`. */
  readonly path: string;
  readonly value: unknown;
  /** The value as compared (descriptor URIs lower-cased). */
  readonly comparable: unknown;
  /** Number of collection levels above the value. */
  readonly depth: number;
}

/** Per group and per instance of its scope, the values a document supplies (only instances with any value). */
export type UnifiedValuesReader = (document: JsonObject) => UnifiedValue[][];

interface GroupMember {
  readonly path: JsonPath;
  readonly steps: readonly PathSegment[];
  readonly collect: PathCollector;
  readonly ignoreCase: boolean;
  readonly depth: number;
}

interface CompiledGroup {
  readonly members: readonly GroupMember[];
  /** Number of collection levels shared by all members: values are compared per instance at that depth. */
  readonly scopeDepth: number;
}

function arrayDepth(path: string): number {
  return path.split('[').length - 1;
}

/** The concrete path prefix that identifies the scope instance (`$.items[2]` for depth 1, `` for the root). */
function scopeInstance(path: string, depth: number): string {
  let end = 0;
  for (let level = 0; level < depth; level++) end = path.indexOf(']', end) + 1;
  return path.slice(0, end);
}

function compileGroup(paths: readonly JsonPath[], descriptorPaths: ReadonlySet<JsonPath>): CompiledGroup {
  return {
    members: paths.map((path) => ({
      path,
      steps: parseJsonPath(path),
      collect: compilePathCollector(path),
      ignoreCase: descriptorPaths.has(path),
      depth: arrayDepth(path),
    })),
    scopeDepth: Math.min(...paths.map(arrayDepth)),
  };
}

function readGroup(group: CompiledGroup, document: JsonObject, into: UnifiedValue[][]): void {
  const byInstance = new Map<string, UnifiedValue[]>();
  for (const { path: memberPath, collect, ignoreCase, depth } of group.members) {
    collect(document, (value, path) => {
      const comparable = ignoreCase && typeof value === 'string' ? value.toLowerCase() : value;
      const instance = scopeInstance(path, group.scopeDepth);
      let values = byInstance.get(instance);
      if (!values) {
        values = [];
        byInstance.set(instance, values);
        into.push(values);
      }
      values.push({ memberPath, path, value, comparable, depth });
    });
  }
}

function compileGroups(resource: ResourceModel): CompiledGroup[] {
  const descriptorPaths = new Set(resource.descriptors.map((use) => use.path));
  return unificationGroups(resource.equalityConstraints).map((paths) => compileGroup(paths, descriptorPaths));
}

export function compileUnifiedValuesReader(resource: ResourceModel): UnifiedValuesReader | undefined {
  if (resource.equalityConstraints.length === 0) return undefined;
  const groups = compileGroups(resource);
  return (document) => {
    const found: UnifiedValue[][] = [];
    for (const group of groups) readGroup(group, document, found);
    return found;
  };
}

interface Agreement {
  /** The first value seen (compared form), or `agreement` itself before any. */
  first: unknown;
}

/** Whether every value under `steps` equals the first one seen; walks without building paths. */
function agreesAt(node: unknown, member: GroupMember, step: number, agreement: Agreement): boolean {
  if (node === undefined || node === null) return true;
  if (step === member.steps.length) {
    const comparable = member.ignoreCase && typeof node === 'string' ? node.toLowerCase() : node;
    if (agreement.first === agreement) agreement.first = comparable;
    return comparable === agreement.first;
  }
  const segment = member.steps[step] as PathSegment;
  const value = typeof node === 'object' ? (node as Record<string, unknown>)[segment.name] : undefined;
  if (!segment.isArray) return agreesAt(value, member, step + 1, agreement);
  if (!Array.isArray(value)) return true;
  for (const item of value) if (!agreesAt(item, member, step + 1, agreement)) return false;
  return true;
}

/** Every value of the group is the same: no instance can conflict (the common case, checked without allocating paths). */
function groupAgrees(group: CompiledGroup, document: JsonObject): boolean {
  const agreement: Agreement = { first: undefined };
  agreement.first = agreement;
  for (const member of group.members) if (!agreesAt(document, member, 0, agreement)) return false;
  return true;
}

function leafOf(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}

/** The message lists one value per source, repeats included, as the ODS does (`'2022', '2019', '2022'`). */
function reportConflict(values: readonly UnifiedValue[], into: ValidationErrorsBuilder): void {
  if (new Set(values.map(({ comparable }) => comparable)).size < 2) return;
  const conflicting = values.map(({ value }) => String(value));
  for (const own of values) {
    const higherUp = values.some((other) => other.depth < own.depth && other.comparable !== own.comparable);
    into.add(own.path, messages.keyUnificationConflict(leafOf(own.path), conflicting, higherUp));
  }
}

/** Checks the unified values of a document, leaving out those at paths `isIgnored` names. */
export type KeyUnificationCheck = (
  document: JsonObject,
  into: ValidationErrorsBuilder,
  isIgnored?: (path: string) => boolean,
) => void;

export function compileKeyUnificationCheck(resource: ResourceModel): KeyUnificationCheck | undefined {
  if (resource.equalityConstraints.length === 0) return undefined;
  const groups = compileGroups(resource);
  return (document, into, isIgnored = () => false) => {
    for (const group of groups) {
      if (groupAgrees(group, document)) continue;
      const instances: UnifiedValue[][] = [];
      readGroup(group, document, instances);
      for (const values of instances)
        reportConflict(
          values.filter(({ path }) => !isIgnored(path)),
          into,
        );
    }
  };
}
