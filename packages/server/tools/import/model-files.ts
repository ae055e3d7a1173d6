// Serialises model files as stable JSON and writes them, or reports how the committed files differ.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ModelFiles } from './build-model.js';

export function serialise(content: unknown): string {
  return JSON.stringify(content, null, 2) + '\n';
}

export function writeModelFiles(modelDir: string, files: ModelFiles): void {
  mkdirSync(modelDir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(modelDir, name), serialise(content));
}

const MAX_REPORTED_LINES = 5;

/** One message per file that is missing or differs, naming the first differing lines. */
export function diffModelFiles(modelDir: string, files: ModelFiles): string[] {
  const differences: string[] = [];
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(modelDir, name);
    if (!existsSync(file)) {
      differences.push(`${name}: missing`);
      continue;
    }
    const expected = serialise(content).split('\n');
    const actual = readFileSync(file, 'utf8').split('\n');
    const lines: string[] = [];
    for (let line = 0; line < Math.max(expected.length, actual.length) && lines.length < MAX_REPORTED_LINES; line++) {
      if (expected[line] !== actual[line]) {
        lines.push(
          `  line ${line + 1}: committed ${JSON.stringify(actual[line])}, fresh ${JSON.stringify(expected[line])}`,
        );
      }
    }
    if (lines.length > 0) differences.push(`${name} differs from a fresh import:\n${lines.join('\n')}`);
  }
  return differences;
}
