// CLI: `npm run gen-state -w packages/server -- --students N [--store SPEC] [--seed S] [--parallel P] [--progress M]`
// generates a synthetic state (see README.md beside this file) into a store, created and seeded like a first `serve`.
import { Command, InvalidArgumentError } from 'commander';
import { getModelRegistry } from '../../src/model/index.js';
import { openDirectStoreTarget } from '../../src/load/index.js';
import { createProgressDisplay, type ProgressMode } from '../../src/load/progress/progress-display.js';
import { documentCount, stateDocumentGroups } from './state-documents.js';
import { stateShape } from './state-shape.js';
import { writeState } from './write-state.js';

const DEFAULT_STORE = 'sqlite:./data/state.sqlite';
const DEFAULT_PARALLEL = 64;

function wholeNumber(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new InvalidArgumentError('expected a whole number');
  return value;
}

interface Flags {
  readonly students: number;
  readonly store: string;
  readonly seed: number;
  readonly parallel: number;
  readonly progress: ProgressMode;
}

const program = new Command('gen-state')
  .description(
    'Generates a synthetic state (SEA, LEAs, schools, students, enrollments, attendance, grades, ...) into a store',
  )
  .requiredOption('--students <n>', 'number of students', wholeNumber)
  .option('--store <spec>', 'store spec (sqlite:<file> or postgres://...)', DEFAULT_STORE)
  .option('--seed <n>', 'seed: the same seed gives the same documents', wholeNumber, 1)
  .option('--parallel <n>', 'writes in flight', wholeNumber, DEFAULT_PARALLEL)
  .option('--progress <mode>', 'auto, bar, lines or none', 'auto')
  .action(async (flags: Flags) => {
    const registry = getModelRegistry();
    const shape = stateShape(flags.students, flags.seed);
    const groups = stateDocumentGroups(shape, registry);
    console.log(
      `${shape.students} students, ${shape.schools.length} schools, ${shape.leaIds.length} LEAs, ` +
        `${shape.staff} staff: ${documentCount(groups)} documents into ${flags.store}`,
    );
    const { target } = await openDirectStoreTarget(flags.store, registry);
    try {
      const summary = await writeState({
        target,
        registry,
        groups,
        parallel: flags.parallel,
        progress: createProgressDisplay(flags.progress),
      });
      const rate = Math.round(summary.written / summary.seconds);
      console.log(
        `Wrote ${summary.written} documents in ${summary.seconds.toFixed(1)} s (${rate}/s), ${summary.failed} failed`,
      );
      for (const failure of summary.failures) console.log(`  ${failure}`);
      if (summary.failed > 0) process.exitCode = 1;
    } finally {
      await target.close();
    }
  });

await program.parseAsync();
