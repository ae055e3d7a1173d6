// Writes a synthetic state through the load's direct target (the API's own POST operation in-process, the bulk path
// of `load --direct`): each group's documents with up to `parallel` writes in flight, which the store commits
// together, the next group once the previous one is done. Progress goes to a display; failures are counted and the
// first few kept for the report.
import type { ModelRegistry, ResourceModel } from '../../src/model/index.js';
import type { LoadTarget } from '../../src/load/index.js';
import type { ProgressDisplay } from '../../src/load/progress/progress-display.js';
import { RequestPool } from '../../src/load/run/request-pool.js';
import { documentCount, type DocumentGroup } from './state-documents.js';

export interface WriteStateOptions {
  readonly target: LoadTarget;
  readonly registry: ModelRegistry;
  readonly groups: readonly DocumentGroup[];
  readonly parallel: number;
  readonly progress: ProgressDisplay;
}

export interface WriteStateSummary {
  readonly written: number;
  readonly failed: number;
  /** Up to a few failures: resource, status and the API's answer. */
  readonly failures: readonly string[];
  readonly seconds: number;
}

const KEPT_FAILURES = 5;

function resourceOf(registry: ModelRegistry, endpoint: string): ResourceModel {
  const resource = registry.getResource('ed-fi', endpoint);
  if (!resource) throw new Error(`The model has no ed-fi resource '${endpoint}'`);
  return resource;
}

export async function writeState(options: WriteStateOptions): Promise<WriteStateSummary> {
  const { target, registry, groups, progress } = options;
  const total = documentCount(groups);
  const started = performance.now();
  const failures: string[] = [];
  let completed = 0;
  let failed = 0;
  let order = 0;
  const state = () => ({ completed, skipped: 0, failed, total, order, elapsedMs: performance.now() - started });
  const signal = new AbortController().signal;
  for (const group of groups) {
    order++;
    const pool = new RequestPool(options.parallel);
    for (const stream of group) {
      const resource = resourceOf(registry, stream.endpoint);
      for (const document of stream.documents()) {
        await pool.start(async () => {
          const result = await target.post(resource, document, signal);
          completed++;
          if (result.status !== 200 && result.status !== 201) {
            failed++;
            if (failures.length < KEPT_FAILURES) failures.push(`${stream.endpoint} ${result.status} ${result.body}`);
          }
          progress.update(state());
        });
      }
    }
    await pool.idle();
  }
  progress.finish(state());
  return { written: completed - failed, failed, failures, seconds: (performance.now() - started) / 1000 };
}
