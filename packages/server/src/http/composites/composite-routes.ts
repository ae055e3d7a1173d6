// The composite routes (contract §9.2): `/composites/v1/{organization}/{category}/{composite}` (+ `/{id}`), the
// nested routes of each category (`/composites/v1/ed-fi/enrollment/schools/{id}/students`), and the index at
// `/composites/v1/` the discovery document points to. Names match case-insensitively; an unknown one is 404.
import type { RequestContext, RouteDefinition } from '@edfi-api/framework';
import { ApiProblem, type Caller, type DataServices } from '../../api/index.js';
import {
  readCompositeItem,
  readCompositeList,
  servesParent,
  type CompiledCategory,
  type CompiledComposite,
  type CompositeRequest,
} from '../../composites/index.js';
import { route } from '../authentication.js';
import { compositeMetadataRoutes } from './composite-metadata.js';
import { queryParametersOf } from '../data/data-request.js';
import { send } from '../data/raw-data-response.js';
import { requestRoot, type TrustProxy } from '../meta/index.js';

export const COMPOSITES_ROOT = '/composites/v1';

export interface CompositeRoutesOptions {
  readonly services: DataServices;
  readonly categories: readonly CompiledCategory[];
  readonly basePath: string;
  readonly trustProxy?: TrustProxy;
}

const BEARER = { auth: ['bearer'] } as const;
const CATEGORY = `${COMPOSITES_ROOT}/{organization}/{category}`;

type CategoryParams = { organization: string; category: string };

function notFound(): never {
  throw new ApiProblem('notFound', { raisedBeforeController: true });
}

function same(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function categoryOf(categories: readonly CompiledCategory[], params: CategoryParams): CompiledCategory {
  return (
    categories.find(
      (category) => same(category.organization, params.organization) && same(category.name, params.category),
    ) ?? notFound()
  );
}

function compositeOf(category: CompiledCategory, segment: string): CompiledComposite {
  return category.composites.find((composite) => same(composite.segment, segment)) ?? notFound();
}

export function compositeRoutes(options: CompositeRoutesOptions): RouteDefinition[] {
  const { services, categories } = options;
  const requestOf = (ctx: RequestContext<CategoryParams & { composite: string }, Caller>): CompositeRequest => ({
    composite: compositeOf(categoryOf(categories, ctx.params), ctx.params.composite),
    caller: ctx.identity,
    headers: ctx.headers,
  });
  const rootOf = (ctx: RequestContext): string => requestRoot(ctx, options.basePath, options.trustProxy);
  return [
    ...compositeMetadataRoutes(categories, rootOf),
    route.get(`${COMPOSITES_ROOT}`, BEARER, (ctx) => {
      const root = `${rootOf(ctx)}${COMPOSITES_ROOT}`;
      return categories.map((category) => ({
        organization: category.organization,
        category: category.name,
        displayName: category.displayName,
        composites: category.composites.map(
          (composite) => `${root}/${category.organization}/${category.name}/${composite.segment}`,
        ),
      }));
    }),
    route.get(`${CATEGORY}/{composite}`, BEARER, (ctx) =>
      send(readCompositeList(services, requestOf(ctx), queryParametersOf(ctx))),
    ),
    route.get(`${CATEGORY}/{composite}/{id}`, BEARER, (ctx) =>
      send(readCompositeItem(services, requestOf(ctx), ctx.params.id)),
    ),
    route.get(`${CATEGORY}/{parent}/{parentId}/{composite}`, BEARER, (ctx) => {
      const category = categoryOf(categories, ctx.params);
      const parentRoute = category.parentRoutes.find((candidate) => same(candidate.segment, ctx.params.parent));
      const request = requestOf(ctx);
      if (parentRoute === undefined || !servesParent(request.composite, parentRoute.parameter)) notFound();
      const parent = { parameter: parentRoute.parameter, id: ctx.params.parentId };
      return send(readCompositeList(services, request, queryParametersOf(ctx), parent));
    }),
  ];
}
