// The Swagger UI files the docs page serves, read from the swagger-ui-dist package (installed beside the framework by
// the application that opts in) on first use and kept in memory.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ConfigurationError } from '../errors.js';

export interface StaticAsset {
  readonly contentType: string;
  readonly body: Buffer;
}

/** The files of swagger-ui-dist the page uses, by name, with their media types. */
export const SWAGGER_UI_FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

function swaggerUiFolder(): string {
  try {
    return path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  } catch (error) {
    throw new ConfigurationError('The docs page needs the swagger-ui-dist package: npm install swagger-ui-dist.', {
      cause: error,
    });
  }
}

/** Reads a file of SWAGGER_UI_FILES once. */
export function swaggerUiAssetLoader(): (name: string) => StaticAsset {
  const loaded = new Map<string, StaticAsset>();
  let folder: string | undefined;
  return (name) => {
    let asset = loaded.get(name);
    if (asset === undefined) {
      folder ??= swaggerUiFolder();
      asset = { contentType: SWAGGER_UI_FILES[name]!, body: readFileSync(path.join(folder, name)) };
      loaded.set(name, asset);
    }
    return asset;
  };
}
