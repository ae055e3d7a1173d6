import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { summaryText, type LoadSummary } from '../../src/load/index.js';
import { formatDuration } from '../../src/load/progress/format-duration.js';
import { createLineDisplay } from '../../src/load/progress/line-display.js';

const summary: LoadSummary = {
  target: 'http://localhost:8080/v7.3/api',
  documents: 1210,
  resources: {
    '/ed-fi/schools': { created: 3, updated: 1, failed: 0 },
    '/ed-fi/studentSchoolAssociations': { created: 1000, updated: 0, failed: 6 },
  },
  created: 1003,
  updated: 1,
  failed: 6,
  skipped: 200,
  notDocuments: { SectionReference: 1 },
  unknownElements: { Colour: 2 },
  unreadableFiles: [{ file: 'x.jsonl', error: 'the file name names no resource' }],
  notices: [],
  elapsedMs: 12_500,
  documentsPerSecond: 80.8,
  aborted: false,
};

describe('load reporting', () => {
  it('summarises totals, each resource and where the failures are', () => {
    expect(summaryText(summary, 'failed.jsonl').split('\n')).toEqual([
      'Loaded 1,004 of 1,210 documents into http://localhost:8080/v7.3/api in 13s (81 docs/s): 1,003 created, 1 updated, 6 failed, 200 already done before resuming.',
      '  resource                          created  updated   failed',
      '  /ed-fi/schools                          3        1        0',
      '  /ed-fi/studentSchoolAssociations    1,000        0        6',
      'Interchange elements that are not documents, skipped: SectionReference (1).',
      'Elements the interchange schemas do not have, not loaded: Colour (2).',
      'Unreadable: x.jsonl: the file name names no resource',
      'Failed records: failed.jsonl',
    ]);
    expect(summaryText({ ...summary, aborted: true }, undefined)).toMatch(
      /^Stopped after loading[^]*--resume to continue\.$/,
    );
  });

  it('prints plain progress lines at most every interval, and a last one', () => {
    const stream = new PassThrough();
    const display = createLineDisplay(stream, 1000);
    const state = { completed: 0, skipped: 0, failed: 0, total: 400, order: 2, elapsedMs: 0 };
    display.update({ ...state, completed: 10, elapsedMs: 500 });
    display.update({ ...state, completed: 100, failed: 1, elapsedMs: 1000 });
    display.update({ ...state, completed: 150, elapsedMs: 1500 });
    display.finish({ ...state, completed: 400, failed: 1, elapsedMs: 4000 });
    expect(String(stream.read()).split('\n')).toEqual([
      'loaded 100/400 (25%), 100 docs/s, ETA 3s, 1 failed, order 2',
      'loaded 400/400 (100%), 100 docs/s, ETA 0s, 1 failed, order 2',
      '',
    ]);
  });

  it('formats durations for people', () => {
    expect([5, 65, 3725].map(formatDuration)).toEqual(['5s', '1m05s', '1h02m']);
  });
});
