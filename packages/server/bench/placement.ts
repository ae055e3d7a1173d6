// Where the server and the load generator run. With one server process on a 2-core machine, the server runs on CPU 0
// and this process (autocannon) on CPU 1, so neither takes the other's core; several workers share every CPU with the
// load generator. A PostgreSQL server is not placed: it runs wherever the system puts it.
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';

/** Whether processes can be pinned to CPUs here (Linux `taskset`). */
function canPin(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Pins every thread of a running process to the CPUs in `list` (e.g. `1`, `0-1`). */
function pinProcess(pid: number, list: string): void {
  execFileSync('taskset', ['-a', '-pc', list, String(pid)], { stdio: 'ignore' });
}

export interface Placement {
  readonly serverCpus?: string;
  readonly loadGeneratorCpus?: string;
  readonly description: string;
}

export class Placements {
  readonly #pinning: boolean;
  readonly #allCpus = `0-${cpus().length - 1}`;

  constructor(pin: boolean) {
    this.#pinning = pin && cpus().length >= 2 && canPin();
  }

  get pinning(): boolean {
    return this.#pinning;
  }

  for(workers: number): Placement {
    if (this.#pinning && workers === 1)
      return { serverCpus: '0', loadGeneratorCpus: '1', description: 'server on CPU 0, load generator on CPU 1' };
    return {
      loadGeneratorCpus: this.#pinning ? this.#allCpus : undefined,
      description: 'server and load generator on every CPU',
    };
  }

  /** Pins this process as the placement says (its children, such as a CLI it runs, inherit it). */
  placeLoadGenerator(placement: Placement): void {
    if (placement.loadGeneratorCpus !== undefined) pinProcess(process.pid, placement.loadGeneratorCpus);
  }

  /** Lets this process (and what it starts next) use every CPU again. */
  release(): void {
    if (this.#pinning) pinProcess(process.pid, this.#allCpus);
  }
}
