// The composite categories the server serves: `model/composites.json` (written by tools/import-composites.ts from
// the ODS definition files), compiled against the registry on first use.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { findModelDir, type ModelRegistry } from '../model/index.js';
import { compileCompositeCategories, type CompiledCategory } from './compile.js';
import { COMPOSITES_FORMAT_VERSION, type CompositesFile } from './definition.js';

export function readCompositesFile(file = path.join(findModelDir(), 'composites.json')): CompositesFile {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as CompositesFile;
  if (parsed.formatVersion !== COMPOSITES_FORMAT_VERSION)
    throw new Error(
      `${file} has format version ${parsed.formatVersion}; this server reads ${COMPOSITES_FORMAT_VERSION}`,
    );
  return parsed;
}

const compiled = new WeakMap<ModelRegistry, readonly CompiledCategory[]>();

/** The committed categories compiled for this registry, once. */
export function compositeCategoriesOf(registry: ModelRegistry): readonly CompiledCategory[] {
  let categories = compiled.get(registry);
  if (categories === undefined) {
    categories = compileCompositeCategories(readCompositesFile().categories, registry);
    compiled.set(registry, categories);
  }
  return categories;
}
