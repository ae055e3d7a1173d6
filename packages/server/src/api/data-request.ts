// What every data operation receives: the services it runs on and the request, already resolved to a resource.
import type { IncomingHttpHeaders } from 'node:http';
import type { ModelRegistry, ResourceModel } from '../model/index.js';
import type { Store } from '../store/store.js';
import type { Authorize } from './authorization.js';
import type { Caller } from './caller.js';

export interface DataServices {
  readonly store: Store;
  readonly registry: ModelRegistry;
  readonly authorize: Authorize;
}

export interface DataRequest {
  readonly resource: ResourceModel;
  readonly caller: Caller;
  /** Absolute URL of the resource collection as requested, without a trailing slash; `Location` appends the id. */
  readonly collectionUrl: string;
  /** The request headers (lower-case names); operations read the conditional ones. */
  readonly headers: IncomingHttpHeaders;
}

/** What reads need of a request: they answer no `Location`. */
export type ReadRequest = Pick<DataRequest, 'resource' | 'caller' | 'headers'>;

/** Query-string parameters by lower-cased name (names match case-insensitively), first value of each. */
export type QueryParameters = ReadonlyMap<string, string>;
