// The direct target: documents go through the API's own POST operation (validation, extraction, store write) in this
// process, without HTTP or tokens, so an initial load runs as fast as the store allows and validates identically.
import { randomUUID } from 'node:crypto';
import {
  allowEveryAction,
  ApiProblem,
  problemBody,
  SYSTEM_CALLER,
  upsertDocument,
  type DataRequest,
  type DataServices,
} from '../../api/index.js';
import type { ModelRegistry, ResourceModel } from '../../model/index.js';
import type { JsonObject } from '../../model/validation/index.js';
import type { Store } from '../../store/store.js';
import type { LoadTarget, PostResult } from './load-target.js';

export interface DirectTargetOptions {
  readonly store: Store;
  readonly registry: ModelRegistry;
  /** Shown in messages, e.g. the store spec. */
  readonly description: string;
  /** Called by close(), e.g. to close a store the loader opened. */
  readonly onClose?: () => Promise<void>;
}

function failureOf(error: unknown): PostResult {
  if (error instanceof ApiProblem) return { status: error.problem.status, body: problemBody(error, randomUUID()) };
  return { status: 500, body: JSON.stringify({ detail: error instanceof Error ? error.message : String(error) }) };
}

export function createDirectTarget(options: DirectTargetOptions): LoadTarget {
  const services: DataServices = { store: options.store, registry: options.registry, authorize: allowEveryAction };

  async function post(resource: ResourceModel, document: JsonObject): Promise<PostResult> {
    const request: DataRequest = {
      resource,
      caller: SYSTEM_CALLER,
      collectionUrl: `/data/v3/${resource.namespace}/${resource.endpoint}`,
      headers: {},
    };
    try {
      const response = await upsertDocument(services, request, document);
      return { status: response.status, body: response.body ?? '' };
    } catch (error) {
      return failureOf(error);
    }
  }

  return { description: options.description, post, close: () => options.onClose?.() ?? Promise.resolve() };
}
