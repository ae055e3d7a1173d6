// Resolves composite categories against the model once: each composite's base resource, body plan and filter
// parameters, each category's parent routes (`/schools/{School.Id}/{compositeName}`). A definition the model cannot
// answer is refused with the composite, member and reason.
import type { ModelRegistry, ResourceModel } from '../model/index.js';
import type { CompositeCategory, CompositeDefinition, CompositeRoute } from './definition.js';
import { MemberCompiler } from './compile-members.js';
import type { MemberPlan } from './member-plan.js';
import { sameName } from './model-names.js';
import { compileParameter, type ParameterPlan } from './parameter-plan.js';

export interface CompiledComposite {
  readonly name: string;
  /** The URL segment, e.g. `students`. */
  readonly segment: string;
  readonly base: ResourceModel;
  readonly members: readonly MemberPlan[];
  /** Every parameter: those of parent routes (`School.Id`) and query parameters (`SchoolId`). */
  readonly parameters: readonly ParameterPlan[];
}

/** `/schools/{School.Id}/{compositeName}`: the parent's URL segment and the composite parameter its id binds. */
export interface ParentRoute {
  readonly segment: string;
  readonly parameter: string;
  readonly template: string;
}

export interface CompiledCategory {
  readonly organization: string;
  readonly name: string;
  readonly displayName: string;
  readonly composites: readonly CompiledComposite[];
  readonly parentRoutes: readonly ParentRoute[];
}

const PARENT_ROUTE = /^\/([A-Za-z][A-Za-z0-9]*)\/\{([A-Za-z][A-Za-z0-9]*\.Id)\}\/\{compositeName\}$/;

/** The plural camel-case segment of a composite name (`LocalEducationAgency` → `localEducationAgencies`). */
function segmentOf(definition: CompositeDefinition, base: ResourceModel): string {
  if (sameName(definition.name, base.resourceName)) return base.endpoint;
  const camel = definition.name.charAt(0).toLowerCase() + definition.name.slice(1);
  if (/[^aeiou]y$/.test(camel)) return `${camel.slice(0, -1)}ies`;
  return /(s|x|ch|sh)$/.test(camel) ? `${camel}es` : `${camel}s`;
}

function parentRouteOf(category: CompositeCategory, route: CompositeRoute): ParentRoute {
  const match = PARENT_ROUTE.exec(route.relativeRouteTemplate);
  if (!match)
    throw new Error(
      `Category ${category.organization}/${category.name}: the route '${route.relativeRouteTemplate}' is not of the form /{segment}/{Resource.Id}/{compositeName}`,
    );
  return { segment: match[1]!, parameter: match[2]!, template: route.relativeRouteTemplate };
}

function compileComposite(
  registry: ModelRegistry,
  members: MemberCompiler,
  category: CompositeCategory,
  definition: CompositeDefinition,
): CompiledComposite {
  const location = `Composite ${category.organization}/${category.name}/${definition.name}`;
  const base = registry.getResourceByName(definition.baseResource);
  if (!base) throw new Error(`${location}: no resource '${definition.baseResource}'`);
  return {
    name: definition.name,
    segment: segmentOf(definition, base),
    base,
    members: members.document(base, definition.members, location),
    parameters: definition.parameters.map((parameter) => compileParameter(registry, definition.name, base, parameter)),
  };
}

export function compileCompositeCategories(
  categories: readonly CompositeCategory[],
  registry: ModelRegistry,
): CompiledCategory[] {
  const members = new MemberCompiler(registry);
  return categories.map((category) => ({
    organization: category.organization,
    name: category.name,
    displayName: category.displayName,
    composites: category.composites.map((definition) => compileComposite(registry, members, category, definition)),
    parentRoutes: category.routes.map((route) => parentRouteOf(category, route)),
  }));
}
