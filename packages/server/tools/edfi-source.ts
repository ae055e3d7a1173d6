// Where the Ed-Fi source inputs are read from (the Data Standard and ODS/API files, XSDs, the sample district): the
// folder in EDFI_SOURCE, or ../shared/edfi beside the repository. They never enter the repository.
import path from 'node:path';
import { findEdFiInputsDir } from '../src/model/index.js';

export const EDFI_SOURCE_VARIABLE = 'EDFI_SOURCE';

export function edfiSourceDir(): string {
  return findEdFiInputsDir();
}

/** The extension folders of the Ed-Fi inputs that ship in the committed model (served when `serve --extensions` names them). */
const SHIPPED_EXTENSIONS = ['extensions/sample', 'extensions/homograph'];

export function shippedExtensionFolders(sourceDir: string): string[] {
  return SHIPPED_EXTENSIONS.map((folder) => path.join(sourceDir, folder));
}
