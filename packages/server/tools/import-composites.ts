// CLI: converts composite definition files in the ODS format into packages/server/model/composites.json: the Ed-Fi
// enrollment composites from EDFI_SOURCE (default ../shared/edfi), plus any category files of an implementer's own
// (`--add file.xml`, repeatable). Every composite is resolved against the committed model before the file is written
// (`--output` writes elsewhere). With --check, fails when the committed file is stale.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { edfiSourceDir } from './edfi-source.js';
import { getModelRegistry } from '../src/model/index.js';
import { compileCompositeCategories } from '../src/composites/index.js';
import { COMPOSITES_FORMAT_VERSION, type CompositeCategory } from '../src/composites/definition.js';
import { readCompositesXml } from './composites/composites-xml.js';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(packageRoot, '..', '..');
const outputFile = path.join(packageRoot, 'model', 'composites.json');

/** The definition file of the composites an ODS/API 7.3 serves for DS 5.2. */
export const ED_FI_COMPOSITES_FILE = path.join('ods-features', 'composites', 'DS4AndDS5_Composites.xml');

interface ImportOptions {
  sourceDir: string;
  added: string[];
  check: boolean;
  output: string;
}

function parseOptions(args: string[]): ImportOptions {
  const options: ImportOptions = { sourceDir: edfiSourceDir(), added: [], check: false, output: outputFile };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--check') options.check = true;
    else if (arg === '--source' && args[i + 1]) options.sourceDir = path.resolve(args[++i]!);
    else if (arg === '--add' && args[i + 1]) options.added.push(path.resolve(args[++i]!));
    else if (arg === '--output' && args[i + 1]) options.output = path.resolve(args[++i]!);
    else
      throw new Error(
        `Unknown argument ${arg}; usage: import-composites [--source DIR] [--add FILE.xml]… [--output FILE] [--check]`,
      );
  }
  return options;
}

function categoriesOf(files: readonly string[]): CompositeCategory[] {
  const categories = files.flatMap((file) => readCompositesXml(file));
  const seen = new Set<string>();
  for (const { organization, name } of categories) {
    const key = `${organization}/${name}`.toLowerCase();
    if (seen.has(key)) throw new Error(`The category ${organization}/${name} is defined twice`);
    seen.add(key);
  }
  return categories;
}

const options = parseOptions(process.argv.slice(2));
const categories = categoriesOf([path.join(options.sourceDir, ED_FI_COMPOSITES_FILE), ...options.added]);
compileCompositeCategories(categories, getModelRegistry());
const content = `${JSON.stringify({ formatVersion: COMPOSITES_FORMAT_VERSION, categories }, null, 2)}\n`;
const count = categories.reduce((sum, category) => sum + category.composites.length, 0);
console.log(`${categories.length} categories, ${count} composites`);
if (options.check) {
  if (!existsSync(options.output) || readFileSync(options.output, 'utf8') !== content) {
    console.error('model/composites.json is stale: run `npm run import-composites -w packages/server`.');
    process.exit(1);
  }
  console.log('model/composites.json is up to date.');
} else {
  writeFileSync(options.output, content);
  console.log(`Wrote ${path.relative(repoRoot, options.output)}`);
}
