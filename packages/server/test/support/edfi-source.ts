// Tests that read the Ed-Fi source inputs: they run when edfi-source-setup.ts found the folder, and are skipped
// (with one line printed for the whole run) when it is absent.
import path from 'node:path';
import { describe, inject, it, type SuiteOptions, type TestFunction } from 'vitest';
import { edfiSourceDir } from '../../tools/edfi-source.js';

export const EDFI_SOURCE_DIR = edfiSourceDir();
/** The Grand Bend sample district's interchange files. */
export const SAMPLE_DATA = path.join(EDFI_SOURCE_DIR, 'sample-data');

/** A describe block that runs only when the Ed-Fi source inputs are there. */
export function describeWithEdfiSource(name: string, body: () => void, options: SuiteOptions = {}): void {
  describe.skipIf(!inject('edfiSourcePresent'))(name, options, body);
}

/** A test that runs only when the Ed-Fi source inputs are there. */
export function itWithEdfiSource(name: string, body: TestFunction, timeout?: number): void {
  it.skipIf(!inject('edfiSourcePresent'))(name, body, timeout);
}
