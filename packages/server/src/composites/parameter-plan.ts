// Filter parameters of a composite (its Specification), resolved against the model: the path from the base resource
// to the resource the parameter names, as hops between resources, and what the parameter value is compared with.
import type { ModelRegistry, PropertyShape, ResourceModel } from '../model/index.js';
import type { CompositeParameter } from './definition.js';
import {
  findReference,
  queryFieldAt,
  referenceTo,
  referencesTo,
  resourceByPluralName,
  sameName,
  shapeAtPath,
  stepsOf,
} from './model-names.js';

/** One step of a filter path, from the resource nearer the base (`from`) to the next one (`to`). */
export type Hop =
  /** `from` references `to`: a `to` document selects the `from` documents whose reference fields equal its key. */
  | {
      readonly kind: 'follow';
      readonly from: ResourceModel;
      readonly to: ResourceModel;
      readonly keys: readonly HopKey[];
    }
  /** `to` references `from` (a linked collection): a `to` document selects the document its reference points to. */
  | {
      readonly kind: 'referrers';
      readonly from: ResourceModel;
      readonly to: ResourceModel;
      readonly steps: readonly string[];
    }
  /** `to` carries `from`'s key in query fields of the same names (a school's sections by `schoolId`). */
  | {
      readonly kind: 'sharedKey';
      readonly from: ResourceModel;
      readonly to: ResourceModel;
      readonly keys: readonly HopKey[];
    };

/** A query field of `from` and where the equal value is found in a `to` document. */
export interface HopKey {
  readonly field: string;
  readonly steps: readonly string[];
}

export interface ParameterPlan {
  readonly name: string;
  /** From the base resource to `resource`. */
  readonly hops: readonly Hop[];
  readonly resource: ResourceModel;
  /** `id`: the value is the resource id of a `resource` document; otherwise a query field of `resource`. */
  readonly compares: 'id' | { readonly field: string; readonly shape: PropertyShape };
}

function fail(composite: string, parameter: CompositeParameter, message: string): never {
  throw new Error(`Composite ${composite}, parameter ${parameter.name} (${parameter.filterPath}): ${message}`);
}

/** The hop a filter-path step names from `from`, or undefined when the step stays on `from` (`{from}Reference`). */
function hopOf(registry: ModelRegistry, from: ResourceModel, step: string): Hop | 'same' | undefined {
  const named = findReference(from, '$', step) ?? findReference(from, '$', `${step}Reference`);
  if (named && !named.reference.targetIsAbstract) {
    const to = registry.getResourceByName(named.reference.target, named.reference.targetNamespace);
    if (to) return followHop(from, to, named.reference.fields);
  }
  const singular = registry.getResourceByName(step.replace(/Reference$/, ''), from.namespace);
  if (singular && singular === from) return 'same';
  const plural = resourceByPluralName(registry, step);
  if (!plural) return undefined;
  // The referrers by their `{from}Reference`; otherwise by `from`'s key in query fields of the same names (a school's
  // sections, whose school is their course offering's), which the ODS entity model joins on.
  const byName = referencesTo(plural, from).find((reference) =>
    sameName(reference.path, `$.${from.resourceName}Reference`),
  );
  if (byName) return { kind: 'referrers', from, to: plural, steps: stepsOf(byName.path) };
  const keys = from.identityPaths.map((path) => {
    const field = queryFieldAt(from, path);
    const paths = field === undefined ? undefined : plural.queryFields[field];
    return field === undefined || paths === undefined ? undefined : { field, steps: stepsOf(paths[0]!) };
  });
  if (keys.every((key) => key !== undefined)) return { kind: 'sharedKey', from, to: plural, keys };
  const reference = referenceTo(plural, from);
  return reference && { kind: 'referrers', from, to: plural, steps: stepsOf(reference.path) };
}

function followHop(
  from: ResourceModel,
  to: ResourceModel,
  fields: readonly { referencePath: string; targetIdentityPaths: string[] }[],
): Hop | undefined {
  const keys: HopKey[] = [];
  for (const field of fields) {
    const queryField = queryFieldAt(from, field.referencePath);
    if (queryField === undefined) return undefined;
    keys.push({ field: queryField, steps: stepsOf(field.targetIdentityPaths[0]!) });
  }
  return { kind: 'follow', from, to, keys };
}

export function compileParameter(
  registry: ModelRegistry,
  composite: string,
  base: ResourceModel,
  parameter: CompositeParameter,
): ParameterPlan {
  const steps = parameter.filterPath.split(/->|\./).filter((step) => step !== '');
  const property = steps.pop();
  if (property === undefined) fail(composite, parameter, 'the path is empty');
  const hops: Hop[] = [];
  let resource = base;
  for (const step of steps) {
    const hop = hopOf(registry, resource, step);
    if (hop === undefined) fail(composite, parameter, `'${step}' leads nowhere from ${resource.resourceName}`);
    if (hop === 'same') continue;
    hops.push(hop);
    resource = hop.to;
  }
  if (sameName(property, 'Id')) return { name: parameter.name, hops, resource, compares: 'id' };
  const field = Object.keys(resource.queryFields).find((name) => sameName(name, property));
  const shape = field === undefined ? undefined : shapeAtPath(resource, resource.queryFields[field]![0]!);
  if (field === undefined || shape === undefined)
    fail(composite, parameter, `${resource.resourceName} cannot be filtered by '${property}'`);
  return { name: parameter.name, hops, resource, compares: { field, shape } };
}
