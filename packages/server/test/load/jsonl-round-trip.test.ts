import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonlFileNameOf, loadFiles, type LoadSummary } from '../../src/load/index.js';
import { getModelRegistry } from '../../src/model/index.js';
import { temporaryFolder } from './support/convert-files.js';
import { comparableItems, exportResource } from './support/export-resources.js';
import { startSandboxServer, type SandboxServer } from './support/sandbox-server.js';
import { describeWithEdfiSource, SAMPLE_DATA } from '../support/edfi-source.js';

const SOURCE_FILES = [
  'IndicatorDescriptor.xml',
  'IndicatorGroupDescriptor.xml',
  'IndicatorLevelDescriptor.xml',
  'EducationOrganization.xml',
  'EducationOrgCalendar.xml',
  'StaffAssociation.xml',
  'Student.xml',
  'Contact.xml',
].map((file) => path.join(SAMPLE_DATA, file));

describeWithEdfiSource(
  'JSON lines round trip: export every loaded resource by paging GET, load it into a second server',
  () => {
    let first: SandboxServer;
    let second: SandboxServer;
    let exported: Map<string, Record<string, unknown>[]>;
    let reload: LoadSummary;

    beforeAll(async () => {
      [first, second] = await Promise.all([startSandboxServer(), startSandboxServer()]);
      // A subset of the sample: documents referencing data of the files left out fail here, and are not exported.
      const initial = await loadFiles({ inputs: SOURCE_FILES, target: first.target });
      expect(initial.created).toBeGreaterThan(5000);

      const registry = getModelRegistry();
      const folder = temporaryFolder();
      exported = new Map();
      for (const resourcePath of Object.keys(initial.resources)) {
        const items = await exportResource(first, resourcePath);
        exported.set(resourcePath, items);
        const [, namespace, endpoint] = resourcePath.split('/');
        const file = path.join(folder, jsonlFileNameOf(registry.getResource(namespace!, endpoint!)!));
        writeFileSync(file, items.map((item) => `${JSON.stringify(item)}\n`).join(''));
      }
      reload = await loadFiles({ inputs: [folder], target: second.target });
    }, 120_000);
    afterAll(async () => {
      await first.close();
      await second.close();
    });

    it('loads every exported document, ordered by dependencies across files', () => {
      const exportedCount = [...exported.values()].reduce((sum, items) => sum + items.length, 0);
      expect(exportedCount).toBeGreaterThan(4000);
      expect(reload).toMatchObject({ documents: exportedCount, failed: 0 });
      // Descriptor files also hold the seeded defaults, which the second server has already: those update.
      expect(reload.created + reload.updated).toBe(exportedCount);
    });

    it('ends with the same data on both servers', async () => {
      for (const [resourcePath, items] of exported) {
        const copied = await exportResource(second, resourcePath);
        expect(comparableItems(copied), resourcePath).toEqual(comparableItems(items));
      }
    });
  },
);
