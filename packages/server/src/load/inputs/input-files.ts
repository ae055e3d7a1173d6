// The files a load reads: named files, and the .xml / .jsonl files found (recursively) in named folders, in path order.
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

export type InputKind = 'xml' | 'jsonl';

export interface InputFile {
  readonly path: string;
  readonly kind: InputKind;
  /** Size and modification time identify the file's version for the resume checkpoint. */
  readonly size: number;
  readonly modifiedMs: number;
}

const KIND_BY_EXTENSION: Record<string, InputKind> = { '.xml': 'xml', '.jsonl': 'jsonl', '.ndjson': 'jsonl' };

export function inputKindOf(file: string): InputKind | undefined {
  return KIND_BY_EXTENSION[path.extname(file).toLowerCase()];
}

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && inputKindOf(entry.name) !== undefined)
    .map((entry) => path.join(entry.parentPath, entry.name));
}

export async function findInputFiles(paths: readonly string[]): Promise<InputFile[]> {
  const found = new Set<string>();
  for (const given of paths) {
    const resolved = path.resolve(given);
    const info = await stat(resolved);
    if (info.isDirectory()) {
      for (const file of await filesUnder(resolved)) found.add(file);
    } else if (inputKindOf(resolved) === undefined) {
      throw new Error(`${given}: not an interchange (.xml) or JSON lines (.jsonl, .ndjson) file`);
    } else {
      found.add(resolved);
    }
  }
  const files: InputFile[] = [];
  for (const file of [...found].sort()) {
    const info = await stat(file);
    files.push({ path: file, kind: inputKindOf(file)!, size: info.size, modifiedMs: info.mtimeMs });
  }
  return files;
}
