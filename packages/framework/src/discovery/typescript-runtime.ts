// Decides whether TypeScript handler files can be imported, i.e. whether a TypeScript loader is active.

const loaderHints = ['tsx', 'ts-node', '@swc-node', 'esbuild-register'];

export function typescriptLoaderActive(): boolean {
  const override = process.env.API_FRAMEWORK_TYPESCRIPT;
  if (override !== undefined && override !== '') return override === '1' || override.toLowerCase() === 'true';
  if ((process.features as { typescript?: unknown }).typescript) return true;
  if (/\.[cm]?ts$/.test(process.argv[1] ?? '')) return true;
  if (process.execArgv.some((arg) => loaderHints.some((hint) => arg.includes(hint)))) return true;
  const preloaded = (process as { _preload_modules?: unknown })._preload_modules;
  if (
    Array.isArray(preloaded) &&
    preloaded.some((m) => typeof m === 'string' && loaderHints.some((h) => m.includes(h)))
  ) {
    return true;
  }
  if (Symbol.for('ts-node.register.instance') in process) return true;
  return process.env.VITEST !== undefined || process.env.JEST_WORKER_ID !== undefined;
}
