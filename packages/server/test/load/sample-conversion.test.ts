import { expect, it } from 'vitest';
import { validatorFor } from '../../src/model/validation/index.js';
import { convertFiles } from './support/convert-files.js';
import { describeWithEdfiSource, SAMPLE_DATA } from '../support/edfi-source.js';

describeWithEdfiSource('the Grand Bend sample interchanges', () => {
  it('convert, every element type of every file, to documents the validators accept', async () => {
    const { sources, records } = await convertFiles([SAMPLE_DATA]);
    expect(sources.map((source) => source.error).filter(Boolean)).toEqual([]);

    const rejected: string[] = [];
    const perResource = new Map<string, number>();
    for (const record of records) {
      const key = `${record.resource.namespace}/${record.resource.endpoint}`;
      perResource.set(key, (perResource.get(key) ?? 0) + 1);
      const result = validatorFor(record.resource).validateInsert(record.document);
      if (record.problems.length > 0 || !result.ok) {
        rejected.push(`${record.file}:${record.line} ${JSON.stringify(record.problems)} ${JSON.stringify(result)}`);
      }
    }
    expect(rejected).toEqual([]);
    expect(records).toHaveLength(17_449);
    expect(perResource.size).toBe(104);

    // The one top-level element that is not a document: a bare reference declaration (no XML id, so it declares
    // nothing any ref could use) in StudentGradebook.xml.
    const notDocuments = sources.flatMap((source) =>
      [...source.notDocuments].map(([name, count]) => `${name} ${count}`),
    );
    expect(notDocuments).toEqual(['SectionReference 1']);
    expect(sources.filter((source) => source.unknownElements.size > 0)).toEqual([]);
  }, 60_000);
});
