// CLI: imports the Ed-Fi model from EDFI_SOURCE (default ../shared/edfi) into packages/server/model, or with --check verifies that the
// committed model equals a fresh import (exit 1 and a report when it does not).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { edfiSourceDir, shippedExtensionFolders } from './edfi-source.js';
import { buildModelFiles } from './import/build-model.js';
import { diffModelFiles, writeModelFiles } from './import/model-files.js';
import { replayOdsSecurity } from './import/ods-security.js';
import { readSources } from './import/sources.js';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(packageRoot, '..', '..');

interface ImportOptions {
  sourceDir: string;
  check: boolean;
  /** The PostgreSQL server the ODS security scripts are replayed on (in a scratch database, dropped afterwards). */
  postgres: string;
  /** Extension folders imported beside the Data Standard and TPDM (`--extension`, repeatable). */
  extensions: string[];
}

const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/test';

function parseOptions(args: string[]): ImportOptions {
  const options: ImportOptions = {
    sourceDir: edfiSourceDir(),
    check: false,
    postgres: process.env.EDFI_IMPORT_POSTGRES ?? DEFAULT_POSTGRES,
    extensions: [],
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--check') options.check = true;
    else if (arg === '--source' && args[i + 1]) options.sourceDir = path.resolve(args[++i]!);
    else if (arg === '--postgres' && args[i + 1]) options.postgres = args[++i]!;
    else if (arg === '--extension' && args[i + 1]) options.extensions.push(path.resolve(args[++i]!));
    else
      throw new Error(
        `Unknown argument ${arg}; usage: import-model [--source DIR] [--extension FOLDER]… [--postgres URL] [--check]`,
      );
  }
  return options;
}

const options = parseOptions(process.argv.slice(2));
options.extensions.unshift(...shippedExtensionFolders(options.sourceDir));
const modelDir = path.join(packageRoot, 'model');
const sources = readSources(options.sourceDir, options.extensions);
const files = buildModelFiles(sources, await replayOdsSecurity(options.postgres, sources.odsSecurityScripts));
if (options.check) {
  const differences = diffModelFiles(modelDir, files);
  if (differences.length > 0) {
    console.error(differences.join('\n'));
    console.error('The committed model is stale: run `npm run import-model -w packages/server`.');
    process.exit(1);
  }
  console.log(`Model is up to date (${Object.keys(files).length} files).`);
} else {
  writeModelFiles(modelDir, files);
  console.log(`Wrote ${Object.keys(files).join(', ')} to ${path.relative(repoRoot, modelDir)}`);
}
