// Finds the package's generated `model/` folder from this module, both from src (vitest/tsx) and from dist (tsc).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = '@edfi-api/server';

export function findModelDir(startDir: string = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = startDir; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME
    ) {
      return path.join(dir, 'model');
    }
    if (path.dirname(dir) === dir) throw new Error(`No ${PACKAGE_NAME} package above ${startDir}`);
  }
}

/** The Ed-Fi inputs folder (`EDFI_SOURCE`, or `shared/edfi` beside the repository), where readers find Ed-Fi's own files. */
export function findEdFiInputsDir(modelDir: string = findModelDir()): string {
  const configured = process.env.EDFI_SOURCE;
  return configured ? path.resolve(configured) : path.resolve(modelDir, '..', '..', '..', '..', 'shared', 'edfi');
}
