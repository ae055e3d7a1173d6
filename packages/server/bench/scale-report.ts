// The scale benchmark's results: per store, a table of every figure at each size (median and range over the rounds)
// with its growth from the smallest to the largest size, and an SVG chart of the per-request p50s and the full reads'
// per-item cost relative to the smallest size, written into bench/SCALE.md (its "Measured" section) and
// bench/scale-<store>.svg.
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import type { BenchStore } from './bench-stores.js';
import { writeSection } from './results-file.js';
import type { Figures } from './scale-operations.js';
import type { PreparedState } from './scale-state.js';
import { formatNumber, formatRatio, formatSpread, median } from './statistics.js';

export interface ScaleRun {
  readonly checkout: string;
  readonly rounds: number;
  readonly states: readonly PreparedState[];
  readonly measured: ReadonlyMap<PreparedState, readonly Figures[]>;
  /** Operations the run left out. */
  readonly skipped: readonly string[];
}

const SCALE_FILE = new URL('./SCALE.md', import.meta.url);
const CHARTED = /(p50 ms|µs\/item)$/;
/** The growth the issue allows a per-request p50 from the smallest to the largest size. */
const ALLOWED_GROWTH = 1.5;

function chartFileName(store: BenchStore): string {
  return `scale-${store.label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}.svg`;
}

function valuesOf(run: ScaleRun, state: PreparedState, metric: string): number[] {
  return (run.measured.get(state) ?? []).flatMap((figures) => {
    const value = figures.get(metric);
    return value === undefined ? [] : [value];
  });
}

function metricsOf(run: ScaleRun): string[] {
  const first = run.measured.get(run.states[0]!) ?? [];
  return [...(first[0]?.keys() ?? [])];
}

function setupRows(states: readonly PreparedState[]): string[][] {
  const row = (name: string, value: (state: PreparedState) => string) => [name, ...states.map(value), ''];
  return [
    row('documents', (state) => String(state.documents)),
    row('generation (direct POST path), docs/s', (state) =>
      Number.isNaN(state.generationPerSecond) ? 'earlier run' : formatNumber(state.generationPerSecond),
    ),
    row('store size per document, bytes', (state) => formatNumber(state.storeBytesPerDocument)),
    row('store size ÷ JSON bodies', (state) =>
      Number.isNaN(state.bodiesBytes)
        ? ''
        : ((state.storeBytesPerDocument * state.documents) / state.bodiesBytes).toFixed(2),
    ),
    row('deletions before /deletes', (state) => String(state.deleted)),
  ];
}

function storeTable(run: ScaleRun, states: readonly PreparedState[]): string {
  const smallest = states[0]!;
  const largest = states[states.length - 1]!;
  const rows = [
    ...setupRows(states),
    ...metricsOf(run).map((metric) => [
      metric,
      ...states.map((state) => formatSpread(valuesOf(run, state, metric))),
      formatRatio(valuesOf(run, largest, metric), valuesOf(run, smallest, metric)),
    ]),
  ];
  const header = ['figure', ...states.map((state) => `${state.students} students`), 'largest ÷ smallest'];
  return [
    `| ${header.join(' | ')} |`,
    `| --- |${' ---: |'.repeat(header.length - 1)}`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

const COLOURS = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
  '#393b79',
  '#637939',
  '#8c6d31',
  '#843c39',
];

/** Per-request p50s relative to the smallest size, against the size on a log scale, with the allowed growth dashed. */
function chartSvg(run: ScaleRun, store: BenchStore, states: readonly PreparedState[]): string {
  const [width, height, left, top, plotWidth, plotHeight] = [1100, 420, 60, 30, 480, 330];
  const metrics = metricsOf(run).filter((metric) => CHARTED.test(metric));
  const series = metrics.map((metric) => {
    const base = median(valuesOf(run, states[0]!, metric));
    return { metric, points: states.map((state) => median(valuesOf(run, state, metric)) / base) };
  });
  const highest = Math.max(2, ...series.flatMap((line) => line.points).filter(Number.isFinite));
  const logSizes = states.map((state) => Math.log10(state.students));
  const [lowSize, highSize] = [Math.min(...logSizes), Math.max(...logSizes)];
  const x = (index: number) =>
    left + (highSize === lowSize ? 0 : ((logSizes[index]! - lowSize) / (highSize - lowSize)) * plotWidth);
  const y = (ratio: number) => top + plotHeight - (ratio / highest) * plotHeight;
  const text = (tx: number, ty: number, content: string, anchor = 'start') =>
    `<text x="${tx.toFixed(1)}" y="${ty.toFixed(1)}" font-size="11" text-anchor="${anchor}">${content}</text>`;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    text(left, 18, `${store.label}: per-request p50 and per-item cost relative to ${states[0]!.students} students`),
    `<line x1="${left}" y1="${top + plotHeight}" x2="${left + plotWidth}" y2="${top + plotHeight}" stroke="black"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotHeight}" stroke="black"/>`,
    `<line x1="${left}" y1="${y(ALLOWED_GROWTH).toFixed(1)}" x2="${left + plotWidth}" y2="${y(ALLOWED_GROWTH).toFixed(1)}" stroke="grey" stroke-dasharray="4 4"/>`,
    text(left + plotWidth, y(ALLOWED_GROWTH) - 4, `${ALLOWED_GROWTH}×`, 'end'),
    ...[0, 1, Math.round(highest / 2), Math.floor(highest)].map((tick) =>
      text(left - 6, y(tick) + 4, `${tick}×`, 'end'),
    ),
    ...states.map((state, index) => text(x(index), top + plotHeight + 16, `${state.students}`, 'middle')),
    ...series.flatMap((line, index) => {
      const colour = COLOURS[index % COLOURS.length];
      const points = line.points.map((ratio, at) => `${x(at).toFixed(1)},${y(ratio).toFixed(1)}`).join(' ');
      return [
        `<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="2"/>`,
        `<rect x="${left + plotWidth + 20}" y="${top + index * 18}" width="10" height="10" fill="${colour}"/>`,
        text(
          left + plotWidth + 36,
          top + index * 18 + 9,
          `${line.metric.replace(/, (p50 ms|µs\/item)$/, '')} (${formatNumber(line.points.at(-1) ?? 0)}×)`,
        ),
      ];
    }),
    '</svg>',
  ];
  return `${parts.join('\n')}\n`;
}

/** One section per store, so runs on other stores keep theirs. */
export function writeScaleReport(run: ScaleRun): void {
  const stores = [...new Set(run.states.map((state) => state.store))];
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}`;
  for (const store of stores) {
    const states = run.states.filter((state) => state.store === store);
    writeFileSync(new URL(`./${chartFileName(store)}`, import.meta.url), chartSvg(run, store, states));
    const body = [
      `${machine}; ${run.checkout}; ${run.rounds} rounds, each starting every server of the run once (order ` +
        'reversed every other round); cells are median (min–max) over the rounds, one connection, requests one ' +
        'after another.' +
        (run.skipped.length > 0 ? ` Not measured in this run: ${run.skipped.join(', ')}.` : ''),
      storeTable(run, states),
      `![${store.label} scale chart](${chartFileName(store)})`,
    ].join('\n\n');
    writeSection(`## Measured: ${store.label}`, body, SCALE_FILE);
  }
}
