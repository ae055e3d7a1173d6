// Where the read-only Ed-Fi inputs live (the sample district and the XSDs), relative to this checkout.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..');

export const SHARED_EDFI = path.resolve(repoRoot, '..', 'shared', 'edfi');
export const SAMPLE_DATA = path.join(SHARED_EDFI, 'sample-data');
