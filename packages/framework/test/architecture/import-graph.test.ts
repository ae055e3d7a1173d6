// The framework's modules form no import circle, type-only imports included (the lint rule import-x/no-cycle sees
// only value imports): the vocabulary the layers share lives in src/types.ts, which imports only leaf modules.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const RELATIVE_SPECIFIER = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s+'(\.{1,2}\/[^']+)'/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(RELATIVE_SPECIFIER)].map((match) =>
    resolve(dirname(file), match[1]!.replace(/\.js$/, '.ts')),
  );
}

/** Every circle as a list of files relative to src/, each found once from its first file in sorted order. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    const open = stack.indexOf(file);
    if (open !== -1) {
      found.push([...stack.slice(open), file].map((path) => relative(SRC, path)));
      return;
    }
    if (done.has(file)) return;
    stack.push(file);
    for (const next of graph.get(file) ?? []) visit(next);
    stack.pop();
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) visit(file);
  return found;
}

describe('framework import graph', () => {
  const graph = new Map(sourceFiles(SRC).map((file) => [file, importsOf(file)] as const));

  it('reads the imports it checks', () => {
    expect(graph.get(join(SRC, 'server.ts'))).toContain(join(SRC, 'types.ts'));
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', ['a']],
        ]),
      ),
    ).toHaveLength(1);
  });

  it('has no circle, type-only imports included', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('keeps the ground floor on leaf modules', () => {
    for (const imported of graph.get(join(SRC, 'types.ts'))!) expect(graph.get(imported)).toEqual([]);
  });
});
