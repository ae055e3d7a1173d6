// Loads one dependency-order group: streams its units' documents into the request pool, records every outcome, and
// retries documents refused for an unresolved reference after the rest of the group (a resource referencing itself,
// e.g. a parent objective assessment, may arrive before its parent), round after round while that makes progress.
import type { ModelRegistry } from '../../model/index.js';
import type { JsonValue } from '../../model/validation/index.js';
import { unitRecords, type LoadRecord } from '../inputs/unit-records.js';
import type { LoadGroup } from '../plan/load-plan.js';
import { errorOfResponse, type FailedRecordsFile } from '../report/failed-records.js';
import type { LoadTally } from '../report/load-tally.js';
import { UnitProgress, type Checkpoint } from '../resume/checkpoint.js';
import type { InterchangeMappings } from '../xml/interchange-mapping.js';
import type { LoadTarget, PostResult } from '../target/load-target.js';
import type { RequestPool } from './request-pool.js';

export interface GroupContext {
  readonly target: LoadTarget;
  readonly registry: ModelRegistry;
  readonly mappings: InterchangeMappings;
  readonly pool: RequestPool;
  readonly tally: LoadTally;
  readonly failures: FailedRecordsFile;
  readonly checkpoint: Checkpoint | undefined;
  readonly signal: AbortSignal;
  /** Stops the load: a pool task hit a failure that is not the document's (credentials refused). */
  readonly fail: (error: unknown) => void;
  readonly onProgress: () => void;
}

interface Deferred {
  readonly record: LoadRecord;
  readonly progress: UnitProgress;
  result: PostResult;
}

/** Rounds of retrying unresolved references; each round must load at least one document to earn the next. */
const MAX_DEFERRED_ROUNDS = 10;

function resourcePathOf(record: LoadRecord): string {
  return `/${record.resource.namespace}/${record.resource.endpoint}`;
}

function isUnresolvedReference(result: PostResult): boolean {
  return result.status === 409 && result.body.includes('unresolved-reference');
}

export async function runGroup(group: LoadGroup, context: GroupContext): Promise<void> {
  const { target, pool, tally, failures, signal } = context;
  let deferred: Deferred[] = [];
  let loadedThisRound = 0;

  async function fail(record: LoadRecord, progress: UnitProgress, status: number, error: JsonValue): Promise<void> {
    tally.record(resourcePathOf(record), 'failed');
    progress.complete(record.sequence);
    await failures.write({
      resource: resourcePathOf(record),
      source: { file: record.file, line: record.line },
      document: record.document,
      status,
      error,
    });
    context.onProgress();
  }

  async function send(record: LoadRecord, progress: UnitProgress, mayDefer: boolean): Promise<void> {
    try {
      const result = await target.post(record.resource, record.document, signal);
      if (result.status === 201 || result.status === 200) {
        tally.record(resourcePathOf(record), result.status === 201 ? 'created' : 'updated');
        progress.complete(record.sequence);
        loadedThisRound++;
        context.onProgress();
      } else if (mayDefer && isUnresolvedReference(result)) {
        deferred.push({ record, progress, result });
      } else {
        await fail(record, progress, result.status, errorOfResponse(result.body));
      }
    } catch (error) {
      // An aborted request leaves its document not done: a resumed load sends it again.
      if (!signal.aborted) context.fail(error);
    }
  }

  for (const unit of group.units) {
    const progress = context.checkpoint?.unit(unit.key) ?? new UnitProgress(0);
    for await (const record of unitRecords(unit, context.registry, context.mappings)) {
      if (signal.aborted) break;
      if (progress.isDone(record.sequence)) {
        tally.skip();
        context.onProgress();
      } else if (record.problems.length > 0) {
        await fail(record, progress, 0, { conversion: [...record.problems] });
      } else {
        await pool.start(() => send(record, progress, true));
      }
    }
    if (signal.aborted) break;
  }
  await pool.idle();

  for (let round = 1; deferred.length > 0 && !signal.aborted; round++) {
    const retrying = deferred;
    deferred = [];
    loadedThisRound = 0;
    const lastRound = round === MAX_DEFERRED_ROUNDS;
    for (const { record, progress } of retrying) await pool.start(() => send(record, progress, !lastRound));
    await pool.idle();
    if (loadedThisRound === 0 && !signal.aborted) {
      for (const { record, progress, result } of deferred)
        await fail(record, progress, result.status, errorOfResponse(result.body));
      deferred = [];
    }
  }
}
