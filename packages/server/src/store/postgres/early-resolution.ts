// References of the writes that arrive in one event-loop turn, resolved together before their transactions: one
// statement per resource on the pool instead of one per write inside the group-commit batch, whose writes run one
// after another on one connection. Resolving early is as safe as resolving inside the transaction, which takes no
// locks either: the edges' foreign keys catch a target deleted before the write commits, and the write then runs
// again, resolving inside its transaction. A write whose early resolution found a target missing (or failed) also
// resolves inside its transaction, so it sees whatever committed in between.
import type pg from 'pg';
import type { ResourceModel } from '../../model/index.js';
import type { ResolvedReferences } from '../relational/resolved-references.js';
import { TurnBatches, type PendingWork } from '../relational/turn-batches.js';
import type { DocumentWrite } from '../store.js';
import type { PostgresReferenceResolver } from './reference-resolution.js';

export class EarlyReferenceResolution {
  readonly #batches = new TurnBatches<DocumentWrite>((turn) => {
    for (const [resource, group] of groupsByResource(turn)) void this.#resolve(resource, group);
  });

  constructor(
    private readonly pool: pg.Pool,
    private readonly resolver: PostgresReferenceResolver,
  ) {}

  /** The write's resolved references, or undefined when its transaction must resolve them. */
  resolve(write: DocumentWrite): Promise<ResolvedReferences | undefined> {
    if (write.references.length === 0) return Promise.resolve(undefined);
    return this.#batches.run<ResolvedReferences | undefined>(write);
  }

  async #resolve(resource: ResourceModel, group: readonly PendingWork<DocumentWrite>[]): Promise<void> {
    try {
      const writes = group.map((pending) => pending.work);
      const resolutions = await this.resolver.resolveAll(this.pool, resource, writes, false);
      group.forEach((pending, index) => {
        const resolution = resolutions[index]!;
        pending.resolve('missingTarget' in resolution ? undefined : resolution);
      });
    } catch {
      for (const pending of group) pending.resolve(undefined);
    }
  }
}

function groupsByResource(
  turn: readonly PendingWork<DocumentWrite>[],
): Map<ResourceModel, PendingWork<DocumentWrite>[]> {
  const groups = new Map<ResourceModel, PendingWork<DocumentWrite>[]>();
  for (const pending of turn) {
    const group = groups.get(pending.work.resource);
    if (group === undefined) groups.set(pending.work.resource, [pending]);
    else group.push(pending);
  }
  return groups;
}
