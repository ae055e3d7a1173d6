// CLI: derives packages/server/model/interchanges.json (interchange XML element → API JSON mapping) from the DS 5.2 and
// TPDM XSDs in EDFI_SOURCE (default ../shared/edfi) and the committed model; with --check, fails when the committed file is stale.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { edfiSourceDir } from './edfi-source.js';
import { getModelRegistry } from '../src/model/index.js';
import { buildInterchanges } from './interchanges/build-interchanges.js';
import { readXsdSchema } from './interchanges/xsd-schema.js';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(packageRoot, '..', '..');
const outputFile = path.join(packageRoot, 'model', 'interchanges.json');

interface ImportOptions {
  sourceDir: string;
  check: boolean;
  verbose: boolean;
}

function parseOptions(args: string[]): ImportOptions {
  const options: ImportOptions = {
    sourceDir: edfiSourceDir(),
    check: false,
    verbose: false,
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--check') options.check = true;
    else if (arg === '--verbose') options.verbose = true;
    else if (arg === '--source' && args[i + 1]) options.sourceDir = path.resolve(args[++i]!);
    else throw new Error(`Unknown argument ${arg}; usage: import-interchanges [--source DIR] [--check] [--verbose]`);
  }
  return options;
}

function xsdFiles(sourceDir: string): string[] {
  const inFolder = (folder: string): string[] =>
    readdirSync(path.join(sourceDir, folder))
      .filter((name) => name.endsWith('.xsd'))
      .sort()
      .map((name) => path.join(sourceDir, folder, name));
  return [path.join(sourceDir, 'Ed-Fi-Core.xsd'), ...inFolder('xsd'), ...inFolder('tpdm-xsd')];
}

const options = parseOptions(process.argv.slice(2));
const { file, unmapped } = buildInterchanges(readXsdSchema(xsdFiles(options.sourceDir)), getModelRegistry());
const content = `${JSON.stringify(file, null, 2)}\n`;
const documentCount = Object.keys(file.documents).length;
if (options.verbose) for (const { location, reason } of unmapped) console.log(`unmapped ${location}: ${reason}`);
console.log(`${documentCount} document elements, ${unmapped.length} XSD elements without an API property`);
if (options.check) {
  if (!existsSync(outputFile) || readFileSync(outputFile, 'utf8') !== content) {
    console.error('model/interchanges.json is stale: run `npm run import-interchanges -w packages/server`.');
    process.exit(1);
  }
  console.log('model/interchanges.json is up to date.');
} else {
  writeFileSync(outputFile, content);
  console.log(`Wrote ${path.relative(repoRoot, outputFile)}`);
}
