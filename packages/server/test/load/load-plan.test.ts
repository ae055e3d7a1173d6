import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonlFileNameOf, jsonlResourceOf } from '../../src/load/index.js';
import { findInputFiles } from '../../src/load/inputs/input-files.js';
import { indexInputFile } from '../../src/load/inputs/source-index.js';
import { planLoad } from '../../src/load/plan/load-plan.js';
import { getInterchangeMappings } from '../../src/load/xml/interchange-mapping.js';
import { getModelRegistry } from '../../src/model/index.js';
import { interchangeXml, temporaryFolder } from './support/convert-files.js';
import { itWithEdfiSource, SAMPLE_DATA } from '../support/edfi-source.js';

const registry = getModelRegistry();

async function plan(paths: string[]) {
  const sources = [];
  for (const file of await findInputFiles(paths))
    sources.push(await indexInputFile(file, registry, getInterchangeMappings()));
  return { sources, groups: planLoad(sources, registry) };
}

describe('the load plan', () => {
  itWithEdfiSource('groups documents by dependency order, splitting each file across the orders it holds', async () => {
    const { groups } = await plan([
      path.join(SAMPLE_DATA, 'EducationOrganization.xml'),
      path.join(SAMPLE_DATA, 'Student.xml'),
    ]);
    const orders = new Map(
      registry
        .dependencyOrder()
        .filter((entry) => entry.operations.includes('Create'))
        .map((entry) => [entry.resource, entry.order]),
    );
    expect(groups.map((group) => group.order)).toEqual(
      [...new Set(groups.map((group) => group.order))].sort((a, b) => a - b),
    );
    for (const group of groups) {
      for (const unit of group.units) {
        expect(unit.key).toBe(`${group.order}:${unit.source.file.path}`);
        for (const resource of unit.resources)
          expect(orders.get(`/${resource.namespace}/${resource.endpoint}`)).toBe(group.order);
      }
    }
    const schools = groups.find((group) =>
      group.units.some((unit) => [...unit.resources].some((r) => r.endpoint === 'schools')),
    )!;
    const leas = groups.find((group) =>
      group.units.some((unit) => [...unit.resources].some((r) => r.endpoint === 'localEducationAgencies')),
    )!;
    expect(leas.order).toBeLessThan(schools.order);
    expect(groups.reduce((sum, group) => sum + group.documents, 0)).toBe(200 + 963);
  });

  it('takes JSON lines files by resource name, and reports unreadable inputs', async () => {
    const folder = temporaryFolder({
      'students.jsonl': '{"studentUniqueId":"1"}\n\n{"studentUniqueId":"2"}\n',
      'tpdm.candidates.jsonl': '{}\n',
      'Ed-Fi.SCHOOLS.ndjson': '{}\n',
      'things.jsonl': '{}\n',
      'broken.xml': interchangeXml('InterchangeStudent', '<Student>'),
      'odd.xml': interchangeXml('InterchangeStudent', '<Colour>blue</Colour><SectionReference/>'),
      'notes.txt': 'ignored',
    });
    const { sources } = await plan([folder]);
    const byName = Object.fromEntries(sources.map((source) => [path.basename(source.file.path), source]));
    expect(Object.keys(byName).sort()).toEqual(
      [
        'Ed-Fi.SCHOOLS.ndjson',
        'broken.xml',
        'odd.xml',
        'students.jsonl',
        'things.jsonl',
        'tpdm.candidates.jsonl',
      ].sort(),
    );
    expect(Object.fromEntries(byName['odd.xml']!.unknownElements)).toEqual({ Colour: 1 });
    expect(Object.fromEntries(byName['odd.xml']!.notDocuments)).toEqual({ SectionReference: 1 });
    expect([...byName['students.jsonl']!.counts.values()]).toEqual([2]);
    expect(byName['things.jsonl']!.error).toMatch(/names no resource/);
    expect(byName['broken.xml']!.error).toMatch(/unexpected close tag/);
    expect(jsonlResourceOf('x/tpdm.candidates.jsonl', registry)?.namespace).toBe('tpdm');
    expect(jsonlResourceOf('Ed-Fi.SCHOOLS.ndjson', registry)?.endpoint).toBe('schools');
    expect(jsonlFileNameOf(registry.getResource('ed-fi', 'students')!)).toBe('ed-fi.students.jsonl');
    await expect(findInputFiles([path.join(folder, 'notes.txt')])).rejects.toThrow(/not an interchange/);
  });
});
