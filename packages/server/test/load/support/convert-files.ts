// Converts input files to the records a load would send (index pass, plan, unit streams), without sending them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findInputFiles } from '../../../src/load/inputs/input-files.js';
import { indexInputFile, type IndexedFile } from '../../../src/load/inputs/source-index.js';
import { unitRecords, type LoadRecord } from '../../../src/load/inputs/unit-records.js';
import { planLoad } from '../../../src/load/plan/load-plan.js';
import { getInterchangeMappings } from '../../../src/load/xml/interchange-mapping.js';
import { getModelRegistry } from '../../../src/model/index.js';

export interface Conversion {
  readonly sources: IndexedFile[];
  /** In load order. */
  readonly records: LoadRecord[];
}

export async function convertFiles(paths: readonly string[]): Promise<Conversion> {
  const registry = getModelRegistry();
  const mappings = getInterchangeMappings();
  const sources: IndexedFile[] = [];
  for (const file of await findInputFiles(paths)) sources.push(await indexInputFile(file, registry, mappings));
  const records: LoadRecord[] = [];
  for (const group of planLoad(sources, registry)) {
    for (const unit of group.units)
      for await (const record of unitRecords(unit, registry, mappings)) records.push(record);
  }
  return { sources, records };
}

/** Writes files into a new temporary folder and returns the folder. */
export function temporaryFolder(files: Readonly<Record<string, string>> = {}): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'edfi-load-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(folder, name), content);
  return folder;
}

/** An interchange document around the given elements. */
export function interchangeXml(interchange: string, body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${interchange} xmlns="http://ed-fi.org/5.2.0">\n${body}\n</${interchange}>\n`;
}
