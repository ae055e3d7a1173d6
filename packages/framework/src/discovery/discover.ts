// Finds handler modules in per-version folders (V1, V2, …) and imports them in a deterministic order.

import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ConfigurationError } from '../errors.js';
import { typescriptLoaderActive } from './typescript-runtime.js';

/** A handler module and the API version of the folder it was found in. */
export interface HandlerModule {
  readonly version: number;
  /** Path of the module, for error messages. */
  readonly source: string;
  readonly exports: Readonly<Record<string, unknown>>;
}

export interface DiscoveryOptions {
  /** Import .ts/.mts/.cts files; defaults to whether a TypeScript loader is active. */
  readonly typescript?: boolean;
  readonly onIgnoredFile?: (path: string) => void;
}

const versionFolder = /^[Vv](\d+)$/;
const javascriptFile = /\.(?:js|mjs|cjs)$/;
const typescriptFile = /\.(?:ts|mts|cts)$/;
const skippedFile = /(?:\.d\.[cm]?ts$|\.map$|\.(?:test|spec)\.[cm]?[jt]s$)/;

interface Candidate {
  readonly path: string;
  readonly version: number | undefined;
}

async function walk(directory: string, version: number | undefined, found: Candidate[]): Promise<void> {
  const entries = await readdir(directory, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === '__tests__' || entry.name === 'node_modules') continue;
      const match = versionFolder.exec(entry.name);
      await walk(path, match ? Number(match[1]) : version, found);
    } else if (entry.isFile()) {
      found.push({ path, version });
    }
  }
}

function stem(path: string): string {
  return path.replace(/\.[^./\\]+$/, '');
}

/** Keeps the loadable files; where x.ts and x.js sit side by side only one of them is kept. */
function loadableFiles(
  candidates: readonly Candidate[],
  typescript: boolean,
  onIgnored: (path: string) => void,
): Candidate[] {
  const chosen = new Map<string, Candidate>();
  for (const candidate of candidates) {
    if (skippedFile.test(candidate.path)) continue;
    const isJs = javascriptFile.test(candidate.path);
    const isTs = typescript && typescriptFile.test(candidate.path);
    if (!isJs && !isTs) continue;
    if (candidate.version === undefined) {
      onIgnored(candidate.path);
      continue;
    }
    const key = stem(candidate.path);
    const existing = chosen.get(key);
    if (existing === undefined || (typescript ? isTs : isJs)) chosen.set(key, candidate);
  }
  return [...chosen.values()];
}

/** A handler file and the version of the folder it sits in. */
export interface HandlerFile {
  readonly path: string;
  readonly version: number;
}

/** Lists the handler files below `directory` in deterministic order, without importing them. */
export async function findHandlerFiles(
  directory: string | URL,
  options: DiscoveryOptions = {},
): Promise<HandlerFile[]> {
  const root = directory instanceof URL ? fileURLToPath(directory) : directory;
  const candidates: Candidate[] = [];
  try {
    await walk(root, undefined, candidates);
  } catch (error) {
    throw new ConfigurationError(`Cannot read the controller directory ${root}.`, { cause: error });
  }
  const typescript = options.typescript ?? typescriptLoaderActive();
  return loadableFiles(candidates, typescript, options.onIgnoredFile ?? (() => {})) as HandlerFile[];
}

export async function discoverHandlerModules(
  directory: string | URL,
  options: DiscoveryOptions = {},
): Promise<HandlerModule[]> {
  const modules: HandlerModule[] = [];
  for (const file of await findHandlerFiles(directory, options)) {
    let exports: Record<string, unknown>;
    try {
      exports = (await import(pathToFileURL(file.path).href)) as Record<string, unknown>;
    } catch (error) {
      throw new ConfigurationError(`Failed to load handler module ${file.path}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    modules.push({ version: file.version, source: relative(process.cwd(), file.path) || file.path, exports });
  }
  return modules;
}
