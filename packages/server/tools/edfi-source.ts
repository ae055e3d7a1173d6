// Where the Ed-Fi source inputs are read from (the Data Standard and ODS/API files, XSDs, the sample district): the
// folder in EDFI_SOURCE, or ../shared/edfi beside the repository. They never enter the repository.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const EDFI_SOURCE_VARIABLE = 'EDFI_SOURCE';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export function edfiSourceDir(): string {
  const configured = process.env[EDFI_SOURCE_VARIABLE];
  return configured ? path.resolve(configured) : path.resolve(repoRoot, '..', 'shared', 'edfi');
}
