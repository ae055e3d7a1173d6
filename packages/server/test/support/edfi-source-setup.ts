// vitest's global setup for the tests that read the Ed-Fi source inputs (EDFI_SOURCE, default ../shared/edfi beside
// the repository): checks once per run that the folder is there. When it is not, those tests are skipped with one
// printed line, or the run fails when EDFI_REQUIRE_SOURCE=1 (as in CI). Test files read the answer through
// edfi-source.ts.
import { existsSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { EDFI_SOURCE_VARIABLE, edfiSourceDir } from '../../tools/edfi-source.js';

declare module 'vitest' {
  export interface ProvidedContext {
    edfiSourcePresent: boolean;
  }
}

/** vitest global setup (vitest.config.ts `globalSetup`). */
export default function setup(project: TestProject): void {
  const folder = edfiSourceDir();
  const present = existsSync(folder);
  if (!present) {
    const message = `The Ed-Fi source inputs are not at ${folder}`;
    if (process.env.EDFI_REQUIRE_SOURCE === '1') throw new Error(`${message}; EDFI_REQUIRE_SOURCE=1 requires them`);
    console.log(
      `${message}: skipping the tests that read them (to run them, set ${EDFI_SOURCE_VARIABLE} to a folder of the ` +
        "Ed-Fi DS 5.2 + TPDM source files; see the README's 'Ed-Fi source inputs')",
    );
  }
  project.provide('edfiSourcePresent', present);
}
