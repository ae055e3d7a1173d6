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

/** Progress of one unit: documents complete in any order, the checkpoint keeps the gap-free prefix. */
export class UnitProgress {
  #done: number;
  readonly #completedAhead = new Set<number>();

  constructor(done: number) {
    this.#done = done;
  }

  /** Documents complete from the start of the unit. */
  get done(): number {
    return this.#done;
  }

  isDone(sequence: number): boolean {
    return sequence < this.#done || this.#completedAhead.has(sequence);
  }

  complete(sequence: number): void {
    this.#completedAhead.add(sequence);
    while (this.#completedAhead.delete(this.#done)) this.#done++;
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
