// A full disk answers 503 with a problem body (issue 14, defect 5), logged once per episode rather than with a stack
// per request: an episode ends once no request has met a full disk for a minute.
import type { Logger } from '@edfi-api/framework';
import { ApiProblem } from '../api/index.js';

const EPISODE_GAP_MS = 60_000;
/** When clients should try again: space is rarely freed within seconds. */
const RETRY_AFTER_SECONDS = '30';

export class StorageFullEpisodes {
  #lastSeen = -Infinity;

  constructor(private readonly logger: Pick<Logger, 'error'>) {}

  problemFor(error: unknown, now = Date.now()): ApiProblem {
    if (now - this.#lastSeen >= EPISODE_GAP_MS) {
      this.logger.error('storage full: answering 503 until space is freed', {
        reason: error instanceof Error ? error.message : String(error),
      });
    }
    this.#lastSeen = now;
    return new ApiProblem('storageFull', { headers: { 'Retry-After': RETRY_AFTER_SECONDS } });
  }
}
