// The resume checkpoint: per load unit, how many of its documents (counted from the start, without gaps) are done.
// Written atomically while loading and on interruption; a resumed load skips the documents it records as done.
import { createHash } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import type { InputFile } from '../inputs/input-files.js';

const CHECKPOINT_VERSION = 1;

interface CheckpointFile {
  version: number;
  /** Hash of the target and of the inputs' paths, sizes and times: a checkpoint only resumes the same load. */
  fingerprint: string;
  /** Unit key → documents done from its start. */
  units: Record<string, number>;
}

export function loadFingerprint(target: string, files: readonly InputFile[]): string {
  const hash = createHash('sha256').update(target);
  for (const file of files) hash.update(`\n${file.path}\t${file.size}\t${file.modifiedMs}`);
  return hash.digest('hex');
}

/**
 * Progress of one unit: documents complete in any order, the checkpoint keeps the gap-free prefix. Those completed past
 * a gap are kept as runs of consecutive sequences, so a document left waiting (a reference retried at the end of its
 * group) costs one gap, not one entry per document completed after it.
 */
export class UnitProgress {
  #done: number;
  /** Completed runs past the prefix, [start, end) pairs flattened, in order, neither touching nor overlapping. */
  readonly #runs: number[] = [];

  constructor(done: number) {
    this.#done = done;
  }

  /** Documents complete from the start of the unit. */
  get done(): number {
    return this.#done;
  }

  /** Stretches of completed documents held past the gap-free prefix. */
  get runsAhead(): number {
    return this.#runs.length / 2;
  }

  isDone(sequence: number): boolean {
    if (sequence < this.#done) return true;
    const run = this.#runAfter(sequence) - 2;
    return run >= 0 && sequence < this.#runs[run + 1]!;
  }

  complete(sequence: number): void {
    if (this.isDone(sequence)) return;
    const runs = this.#runs;
    const next = this.#runAfter(sequence);
    const joinsPrevious = next > 0 && runs[next - 1] === sequence;
    const joinsNext = next < runs.length && runs[next] === sequence + 1;
    if (joinsPrevious && joinsNext) runs.splice(next - 1, 2);
    else if (joinsPrevious) runs[next - 1] = sequence + 1;
    else if (joinsNext) runs[next] = sequence;
    else runs.splice(next, 0, sequence, sequence + 1);
    if (runs[0] === this.#done) {
      this.#done = runs[1]!;
      runs.splice(0, 2);
    }
  }

  /** Index in #runs of the first run starting after `sequence` (binary search over the starts). */
  #runAfter(sequence: number): number {
    let low = 0;
    let high = this.#runs.length / 2;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.#runs[middle * 2]! <= sequence) low = middle + 1;
      else high = middle;
    }
    return low * 2;
  }
}

export class Checkpoint {
  readonly #file: string;
  readonly #fingerprint: string;
  readonly #units = new Map<string, UnitProgress>();
  readonly #resumed: Record<string, number>;
  #saving: Promise<void> = Promise.resolve();
  /** What the user should know about how the load starts (resumed without a checkpoint file). */
  readonly notice: string | undefined;

  private constructor(file: string, fingerprint: string, resumed: Record<string, number>, notice?: string) {
    this.#file = file;
    this.#fingerprint = fingerprint;
    this.#resumed = resumed;
    this.notice = notice;
  }

  /**
   * A fresh checkpoint, or with `resume` the one on disk (which must belong to the same load). A load that stopped
   * before its first checkpoint left none: resuming it starts from the beginning (documents already stored are
   * updated again, which changes nothing), with a notice.
   */
  static async open(file: string, fingerprint: string, resume: boolean): Promise<Checkpoint> {
    if (!resume) return new Checkpoint(file, fingerprint, {});
    let saved: CheckpointFile;
    try {
      saved = JSON.parse(await readFile(file, 'utf8')) as CheckpointFile;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        return new Checkpoint(file, fingerprint, {}, `--resume: no checkpoint at ${file}; loading from the start.`);
      }
      throw new Error(`--resume: no readable checkpoint at ${file}`);
    }
    if (saved.version !== CHECKPOINT_VERSION || saved.fingerprint !== fingerprint) {
      throw new Error(`--resume: ${file} belongs to another load (other files, file versions or target)`);
    }
    return new Checkpoint(file, fingerprint, saved.units);
  }

  unit(key: string): UnitProgress {
    let progress = this.#units.get(key);
    if (!progress) {
      progress = new UnitProgress(this.#resumed[key] ?? 0);
      this.#units.set(key, progress);
    }
    return progress;
  }

  /** Writes the checkpoint; saves run one after the other, so the file always holds a complete, recent state. */
  save(): Promise<void> {
    this.#saving = this.#saving.then(() => this.#write());
    return this.#saving;
  }

  async #write(): Promise<void> {
    const units: Record<string, number> = { ...this.#resumed };
    for (const [key, progress] of this.#units) units[key] = progress.done;
    const content: CheckpointFile = { version: CHECKPOINT_VERSION, fingerprint: this.#fingerprint, units };
    const temporary = `${this.#file}.tmp`;
    await writeFile(temporary, JSON.stringify(content));
    await rename(temporary, this.#file);
  }

  /** The load finished: nothing is left to resume. */
  async remove(): Promise<void> {
    await this.#saving;
    await rm(this.#file, { force: true });
  }
}
