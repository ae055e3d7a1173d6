// Where loaded documents go: an Ed-Fi API over HTTP, or a local store in-process. Both answer like the API's POST.
import type { ResourceModel } from '../../model/index.js';
import type { JsonObject } from '../../model/validation/index.js';

/**
 * Requests in flight at once by default, and the HTTP target's kept-alive connections. 32: the server's group commit
 * writes what arrives in one event-loop turn in one transaction, so more requests in flight mean fewer commits per
 * document, and on a shared machine they hide the scheduling gaps of both processes (Grand Bend `load --direct`: about
 * 7 % less CPU than with 8).
 */
export const DEFAULT_PARALLEL_REQUESTS = 32;

/** The API's answer to one POST: 201 created, 200 updated, anything else a failure; status 0 when no answer came. */
export interface PostResult {
  readonly status: number;
  /** The response body (a problem-details JSON on failure), or the network error's message when status is 0. */
  readonly body: string;
}

export interface LoadTarget {
  /** The URL or store the documents go to, for messages and the resume checkpoint. */
  readonly description: string;
  /**
   * POSTs one document. Rejects only when the whole load must stop (credentials refused, aborted);
   * a failing document resolves with its status.
   */
  post(resource: ResourceModel, document: JsonObject, signal: AbortSignal): Promise<PostResult>;
  close(): Promise<void>;
}

/** The load cannot go on (e.g. the token endpoint refuses the credentials). */
export class LoadAbortedError extends Error {
  override readonly name = 'LoadAbortedError';
}
