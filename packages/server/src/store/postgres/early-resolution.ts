// References of the writes that arrive in one event-loop turn, resolved together ahead of their transactions: one
// statement per resource on a pooled connection, sent as the turn ends, next to the group-commit batch's BEGIN. When
// a write runs in its batch it takes that result if it has arrived, waits for it if its statement is already running
// (never for a connection, so a batch never waits on the pool while holding one), and otherwise, or when a target was
// not found (one written earlier in the same batch, say), resolves inside its transaction as before: writes keep their
// place in the batch and still see the ones before them.
// Resolving ahead is as safe as resolving inside the transaction, which takes no locks either: the edges' foreign keys
// catch a target deleted before the write commits, and the write then runs again, resolving inside its transaction.
import type pg from 'pg';
import type { ResourceModel } from '../../model/index.js';
import type { ResolvedReferences } from '../relational/resolved-references.js';
import { TurnBatches, type PendingWork } from '../relational/turn-batches.js';
import type { DocumentWrite } from '../store.js';
import type { PostgresReferenceResolver } from './reference-resolution.js';

/** A write's references as resolved ahead: none yet, on their way, or found (undefined: resolve in the transaction). */
export class AheadResolution {
  #running: Promise<ResolvedReferences | undefined> | undefined;

  /** The references, if they were resolved ahead or are being resolved on a connection of their own. */
  async value(): Promise<ResolvedReferences | undefined> {
    return this.#running;
  }

  run(resolution: Promise<ResolvedReferences | undefined>): void {
    this.#running = resolution;
  }
}

interface AheadWrite {
  readonly write: DocumentWrite;
  readonly ahead: AheadResolution;
}

export class EarlyReferenceResolution {
  readonly #batches = new TurnBatches<AheadWrite>((turn) => {
    for (const [resource, group] of groupsByResource(turn)) void this.#resolve(resource, group);
  });

  constructor(
    private readonly pool: pg.Pool,
    private readonly resolver: PostgresReferenceResolver,
  ) {}

  /** Starts resolving the write's references; call it in the turn the write is queued for its batch. */
  start(write: DocumentWrite): AheadResolution {
    const ahead = new AheadResolution();
    if (write.references.length > 0) void this.#batches.run({ write, ahead });
    return ahead;
  }

  async #resolve(resource: ResourceModel, group: readonly PendingWork<AheadWrite>[]): Promise<void> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch {
      for (const pending of group) pending.resolve(undefined);
      return;
    }
    try {
      const writes = group.map((pending) => pending.work.write);
      const resolutions = this.resolver.resolveAll(client, resource, writes, false);
      group.forEach(({ work }, index) =>
        work.ahead.run(
          resolutions.then(
            (all) => {
              const resolution = all[index]!;
              return 'missingTarget' in resolution ? undefined : resolution;
            },
            () => undefined,
          ),
        ),
      );
      await resolutions.catch(() => undefined);
    } finally {
      client.release();
      for (const pending of group) pending.resolve(undefined);
    }
  }
}

function groupsByResource(turn: readonly PendingWork<AheadWrite>[]): Map<ResourceModel, PendingWork<AheadWrite>[]> {
  const groups = new Map<ResourceModel, PendingWork<AheadWrite>[]>();
  for (const pending of turn) {
    const group = groups.get(pending.work.write.resource);
    if (group === undefined) groups.set(pending.work.write.resource, [pending]);
    else group.push(pending);
  }
  return groups;
}
