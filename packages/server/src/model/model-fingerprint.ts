// A short fingerprint of the committed model files: which model a release serves (shown by `edfi-api doctor`).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { findModelDir } from './model-location.js';

const FINGERPRINT_LENGTH = 16;

export function modelFingerprint(modelDir: string = findModelDir()): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(modelDir)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(modelDir, file)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, FINGERPRINT_LENGTH);
}
