// The data routes (contract §1.3, §1.7): collection and item routes for every resource, their change-query and
// partition routes, and the change-version window, resolved through the model registry, bearer-authenticated.
// Composite routes join this list as their operations land.
import type { RouteDefinition } from '@edfi-api/framework';
import {
  availableChangeVersions,
  collectionDeletion,
  collectionReplacement,
  deleteDocument,
  deletedDocuments,
  itemPost,
  keyChanges,
  partitionDocuments,
  refuseSnapshotWrites,
  type ApiProblem,
  type Authorize,
  type DataRequest,
  type DataResponse,
  type DataServices,
  type QueryParameters,
  type ReadRequest,
} from '../../api/index.js';
import type { ModelRegistry } from '../../model/index.js';
import type { Store } from '../../store/store.js';
import {
  ProfileCatalog,
  profiledQuery,
  profiledRead,
  profiledUpdate,
  profiledUpsert,
  type ProfiledServices,
} from '../../profiles/index.js';
import { normalizeBasePath, requestRoot, type TrustProxy } from '../meta/index.js';
import { route } from '../authentication.js';
import {
  dataRequestOf,
  type RootOf,
  queryParametersOf,
  resourceOf,
  resourceReadOf,
  type DataRouteContext,
} from './data-request.js';
import { send } from './raw-data-response.js';
import { jsonBodyOf } from './request-body.js';

export interface DataRoutesOptions {
  readonly store: Store;
  readonly registry: ModelRegistry;
  /** Where the API is mounted, e.g. `/v7.3/api` (for absolute `Location` URLs). */
  readonly basePath: string;
  /** Which `X-Forwarded-*` headers build those URLs; none by default. */
  readonly trustProxy?: TrustProxy;
  /** Claim-set and data authorization (contract §8). */
  readonly authorize: Authorize;
  /** The profiles requests may use (contract §9.1); default read from the store. */
  readonly profiles?: ProfileCatalog;
}

const COLLECTION = '/data/v3/{namespace}/{resource}';
const ITEM = '/data/v3/{namespace}/{resource}/{id}';
const BEARER = { auth: ['bearer'] } as const;

type ResourceRead = (services: DataServices, request: ReadRequest, query: QueryParameters) => Promise<DataResponse>;

export function dataRoutes(options: DataRoutesOptions): RouteDefinition[] {
  const { registry } = options;
  const services: ProfiledServices = {
    store: options.store,
    registry,
    authorize: options.authorize,
    profiles: options.profiles ?? new ProfileCatalog(options.store, registry),
  };
  const basePath = normalizeBasePath(options.basePath);
  const rootOf: RootOf = (ctx) => requestRoot(ctx, basePath, options.trustProxy);
  const collection = (ctx: DataRouteContext): DataRequest => dataRequestOf(ctx, registry, rootOf, false);
  const item = (ctx: DataRouteContext): DataRequest => dataRequestOf(ctx, registry, rootOf, true);
  /** A method the resource's routes refuse with an explanation (once the resource is known to exist). */
  const rejected = (ctx: DataRouteContext, explanation: () => ApiProblem): never => {
    resourceOf(ctx, registry);
    refuseSnapshotWrites(ctx.headers);
    throw explanation();
  };
  /** Writes refuse `Use-Snapshot` before anything else is looked at (contract §10 step 11). */
  const writing = (ctx: DataRouteContext, isItemRoute: boolean): DataRequest => {
    const request = dataRequestOf(ctx, registry, rootOf, isItemRoute);
    refuseSnapshotWrites(ctx.headers);
    return request;
  };
  const feed = (path: string, read: ResourceRead): RouteDefinition =>
    route.get(`${COLLECTION}/${path}`, BEARER, (ctx) =>
      send(read(services, resourceReadOf(ctx, registry), queryParametersOf(ctx))),
    );

  return [
    route.get(COLLECTION, BEARER, (ctx) => send(profiledQuery(services, collection(ctx), queryParametersOf(ctx)))),
    route.post(COLLECTION, BEARER, async (ctx) => {
      const request = writing(ctx, false);
      return send(profiledUpsert(services, request, await jsonBodyOf(ctx)));
    }),
    route.put(COLLECTION, BEARER, (ctx) => rejected(ctx, collectionReplacement)),
    route.delete(COLLECTION, BEARER, (ctx) => rejected(ctx, collectionDeletion)),
    route.get(ITEM, BEARER, (ctx) => send(profiledRead(services, item(ctx), ctx.params.id))),
    route.put(ITEM, BEARER, async (ctx) => {
      const request = writing(ctx, true);
      return send(profiledUpdate(services, request, ctx.params.id, await jsonBodyOf(ctx)));
    }),
    route.delete(ITEM, BEARER, (ctx) => send(deleteDocument(services, writing(ctx, true), ctx.params.id))),
    route.post(ITEM, BEARER, (ctx) => rejected(ctx, itemPost)),
    feed('deletes', deletedDocuments),
    feed('keyChanges', keyChanges),
    feed('partitions', partitionDocuments),
    route.get('/changeQueries/v1/availableChangeVersions', BEARER, (ctx) =>
      send(availableChangeVersions(options.store, { caller: ctx.identity, headers: ctx.headers })),
    ),
  ];
}
