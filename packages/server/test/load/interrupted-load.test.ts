import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createDirectTarget,
  loadFiles,
  type FailedRecord,
  type LoadSummary,
  type ProgressDisplay,
} from '../../src/load/index.js';
import { getModelRegistry } from '../../src/model/index.js';
import { describeEachStore } from '../support/each-store.js';
import { temporaryFolder } from './support/convert-files.js';
import { comparableItems, exportResource } from './support/export-resources.js';
import { startSandboxServer, type SandboxServer } from './support/sandbox-server.js';
import { describeWithEdfiSource, SAMPLE_DATA } from '../support/edfi-source.js';

const INPUTS = [
  'IndicatorDescriptor.xml',
  'IndicatorGroupDescriptor.xml',
  'IndicatorLevelDescriptor.xml',
  'EducationOrganization.xml',
  'EducationOrgCalendar.xml',
  'StaffAssociation.xml',
  'Student.xml',
  'Contact.xml',
].map((file) => path.join(SAMPLE_DATA, file));

function directTarget(sandbox: SandboxServer) {
  return createDirectTarget({ store: sandbox.store, registry: getModelRegistry(), description: 'the sandbox store' });
}

/** Aborts the load once half of the documents are done. */
function abortingHalfWay(controller: AbortController): ProgressDisplay {
  return {
    update: (state) => {
      if (state.completed >= state.total / 2) controller.abort(new Error('stopped half way'));
    },
    finish: () => undefined,
  };
}

function failureKeys(file: string): string[] {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const keys = lines.map((line) => JSON.parse(line) as FailedRecord).map((f) => `${f.source.file}:${f.source.line}`);
  return [...new Set(keys)].sort();
}

describeWithEdfiSource('the Grand Bend sample', () => {
  describeEachStore('a load interrupted half way and resumed', (stores) => {
    let reference: SandboxServer;
    let interrupted: SandboxServer;
    let full: LoadSummary;
    let firstPart: LoadSummary;
    let rest: LoadSummary;
    const folder = temporaryFolder();
    const checkpointFile = path.join(folder, 'checkpoint.json');

    beforeAll(async () => {
      const [referenceSpec, interruptedSpec] = await stores.newSpecs(2);
      [reference, interrupted] = await Promise.all([
        startSandboxServer(referenceSpec),
        startSandboxServer(interruptedSpec),
      ]);
      full = await loadFiles({
        inputs: INPUTS,
        target: directTarget(reference),
        failedFile: path.join(folder, 'reference-failed.jsonl'),
      });

      const controller = new AbortController();
      const options = {
        inputs: INPUTS,
        target: directTarget(interrupted),
        failedFile: path.join(folder, 'failed.jsonl'),
        checkpointFile,
      };
      firstPart = await loadFiles({ ...options, signal: controller.signal, progress: abortingHalfWay(controller) });
      expect(existsSync(checkpointFile)).toBe(true);
      rest = await loadFiles({ ...options, resume: true });
    }, 120_000);
    afterAll(async () => {
      await reference.close();
      await interrupted.close();
    });

    it('stops with about half done, then skips what was done and finishes the rest', () => {
      expect(firstPart.aborted).toBe(true);
      expect(firstPart.created).toBeGreaterThanOrEqual(full.documents / 2 - 16);
      expect(firstPart.created).toBeLessThan(full.documents * 0.75);
      expect(rest.aborted).toBe(false);
      expect(rest.skipped).toBeGreaterThan(full.documents / 3);
      expect(rest.skipped + rest.created + rest.updated + rest.failed).toBe(full.documents);
      expect(firstPart.created + rest.created).toBe(full.created);
      expect(existsSync(checkpointFile)).toBe(false);
    });

    it('ends with the same data as an uninterrupted load', async () => {
      expect(Object.keys(full.resources).length).toBeGreaterThanOrEqual(20);
      for (const resourcePath of Object.keys(full.resources)) {
        const expected = comparableItems(await exportResource(reference, resourcePath));
        expect(comparableItems(await exportResource(interrupted, resourcePath)), resourcePath).toEqual(expected);
      }
    });

    it('keeps the failures of both runs in the failed-records file', () => {
      expect(full.failed).toBeGreaterThan(0);
      expect(failureKeys(path.join(folder, 'failed.jsonl'))).toEqual(
        failureKeys(path.join(folder, 'reference-failed.jsonl')),
      );
    });

    it('refuses to resume a checkpoint of other inputs', async () => {
      await loadFiles({
        inputs: INPUTS.slice(0, 1),
        target: directTarget(interrupted),
        checkpointFile,
        signal: AbortSignal.abort(),
      });
      await expect(
        loadFiles({ inputs: INPUTS, target: directTarget(interrupted), checkpointFile, resume: true }),
      ).rejects.toThrow(/belongs to another load/);
    });
  });
});
