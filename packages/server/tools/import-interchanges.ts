// CLI: derives packages/server/model/interchanges.json (interchange XML element → API JSON mapping) from the DS 5.2 and
// TPDM XSDs in EDFI_SOURCE (default ../shared/edfi), the XSDs of the shipped optional extensions and the committed
// model; with --check, fails when the committed file is stale.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { edfiSourceDir, shippedExtensionFolders } from './edfi-source.js';
import { buildInterchangesFile } from './interchanges/interchanges-file.js';

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

const options = parseOptions(process.argv.slice(2));
const { file, unmapped } = buildInterchangesFile(options.sourceDir, shippedExtensionFolders(options.sourceDir));
const content = `${JSON.stringify(file, null, 2)}\n`;
const documentCount = Object.keys(file.documents).length;
const extensionParts = Object.entries(file.extensions).map(
  ([namespace, part]) => `${namespace} ${Object.keys(part.documents).length}`,
);
if (options.verbose) for (const { location, reason } of unmapped) console.log(`unmapped ${location}: ${reason}`);
console.log(
  `${documentCount} document elements (extensions: ${extensionParts.join(', ') || 'none'}), ` +
    `${unmapped.length} XSD elements without an API property`,
);
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
