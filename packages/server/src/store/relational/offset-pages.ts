// Pages at deep offsets without reading the rows before them. Offset paging is the contract, but `OFFSET k` reads and
// drops k rows, so reading a whole collection page by page costs rows² / page. After each page the process remembers,
// per selection, which document ended it and under which watermark (list-watermark.ts); a later page of the same
// selection seeks past the nearest remembered document before its offset and skips only the rest. The seek statement
// checks the watermark in its own snapshot and returns nothing when it moved; the page is then read by plain offset,
// which is always right. A change-version window that holds every row of the resource filters nothing: it is tried first
// as a guard (list-sql.ts), so that a full change-feed read pages in doc_id order like a plain list.
// An empty seek is also what the page past the selection's end reads, the last of every full read: a probe of the
// seek's checks alone tells the two apart, so that such a page is not read again by offset (every row) and then with
// the window as a filter (every row of the window, sorted).
import type { ListQuery } from '../store.js';
import type { ListShape, ListSql, PageRow, WindowForm } from './list-sql.js';
import { LruCache } from './lru-cache.js';
import { ScopeBreadths, type PageForm } from './scope-breadth.js';

/** Selections whose positions are kept: one per collection a client pages through, and then some. */
const SELECTIONS_KEPT = 1024;
/** Positions kept per selection: enough for parallel readers of one selection at different offsets. */
const POSITIONS_PER_SELECTION = 8;

interface Position {
  /** The row's offset in the selection's result. */
  readonly offset: number;
  readonly docId: number;
  readonly watermark: number;
}

/** A seek's named parameters (list-sql.ts). */
export interface SeekParameters {
  readonly after: number;
  readonly watermark: number;
}

/** One statement of a page read: which of the shape's statements, and what it binds after the shape's values. */
export interface PageStep {
  readonly shape: ListShape;
  readonly statement: 'select' | 'seek' | 'scopeSelect';
  /** Limit and offset. */
  readonly bindings: readonly number[];
  readonly named: Partial<SeekParameters>;
  readonly window: WindowForm;
  /** The remembered position a seek starts after. */
  readonly from?: Position;
}

/**
 * The positions remembered by one process, for every reader of one store (live and snapshots alike), and the page
 * forms of the claims it has read for.
 */
export class OffsetPages {
  readonly #positions = new LruCache<Position[]>(SELECTIONS_KEPT);
  readonly breadths = new ScopeBreadths();

  /**
   * The first statement to read the page: in the scope form, by offset (it sorts the scope's doc ids wherever it
   * starts); scanning, a seek when a position before the offset is remembered.
   */
  first(sql: ListSql, query: ListQuery, form: PageForm): PageStep {
    const window = query.changeVersions === undefined ? 'filter' : 'guard';
    return this.#stepFor(sql.shapeOf(query, window), query, window, form);
  }

  /**
   * Remembers where the page ended and returns undefined when `rows` are the page; otherwise the statement to run
   * instead: a failed seek reads by offset, a failed window guard reads with the window as a filter.
   */
  next(sql: ListSql, query: ListQuery, step: PageStep, rows: readonly PageRow[]): PageStep | undefined {
    const { selectionKey } = step.shape;
    const last = rows.at(-1);
    if (last !== undefined) {
      if (selectionKey !== undefined) this.#remember(selectionKey, query.offset + rows.length - 1, last);
      return undefined;
    }
    if (step.from !== undefined && selectionKey !== undefined) this.#forget(selectionKey, step.from);
    if (step.statement === 'seek') return offsetStep(step.shape, query, step.window);
    if (step.window === 'guard') {
      const form = step.statement === 'scopeSelect' ? 'scope' : 'scan';
      return this.#stepFor(sql.shapeOf(query, 'filter'), query, 'filter', form);
    }
    return undefined;
  }

  /**
   * Whether the shape's probe must run before `next`: after an empty seek. When the probe finds the seek's checks hold,
   * the page is past the selection's end: the empty rows are the page. A live probe runs after the seek, in a state no
   * older than the seek's, and a snapshot's in the seek's own; watermarks never go down, and the remembered one is no
   * newer than the seek's state (it was read before the seek began), so a probe finding it found it in the seek's
   * state too, with the same rows (list-watermark.ts) and so the same guard.
   */
  probesEnd(step: PageStep, rows: readonly PageRow[]): boolean {
    return rows.length === 0 && step.statement === 'seek';
  }

  #stepFor(shape: ListShape, query: ListQuery, window: WindowForm, form: PageForm): PageStep {
    if (form === 'scope') return { ...offsetStep(shape, query, window), statement: 'scopeSelect' };
    const from = shape.selectionKey === undefined ? undefined : this.#nearestBefore(shape.selectionKey, query.offset);
    if (from === undefined) return offsetStep(shape, query, window);
    return {
      shape,
      statement: 'seek',
      bindings: [query.limit, query.offset - from.offset - 1],
      named: { after: from.docId, watermark: from.watermark },
      window,
      from,
    };
  }

  #nearestBefore(selectionKey: string, offset: number): Position | undefined {
    let nearest: Position | undefined;
    for (const position of this.#positions.find(selectionKey) ?? []) {
      if (position.offset < offset && (nearest === undefined || position.offset > nearest.offset)) nearest = position;
    }
    return nearest;
  }

  #remember(selectionKey: string, offset: number, row: PageRow): void {
    const positions = this.#positions.get(selectionKey, () => []);
    const same = positions.findIndex((position) => position.offset === offset);
    if (same >= 0) positions.splice(same, 1);
    else if (positions.length >= POSITIONS_PER_SELECTION) positions.shift();
    positions.push({ offset, docId: row.doc_id, watermark: row.watermark });
  }

  #forget(selectionKey: string, position: Position): void {
    const positions = this.#positions.find(selectionKey);
    if (positions === undefined) return;
    const at = positions.indexOf(position);
    if (at >= 0) positions.splice(at, 1);
  }
}

function offsetStep(shape: ListShape, query: ListQuery, window: WindowForm): PageStep {
  return { shape, statement: 'select', bindings: [query.limit, query.offset], named: {}, window };
}
