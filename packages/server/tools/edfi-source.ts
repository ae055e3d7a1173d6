// Where the Ed-Fi source inputs are read from (the Data Standard and ODS/API files, XSDs, the sample district): the
// folder in EDFI_SOURCE, or ../shared/edfi beside the repository. They never enter the repository.
import { findEdFiInputsDir } from '../src/model/index.js';

export const EDFI_SOURCE_VARIABLE = 'EDFI_SOURCE';

export function edfiSourceDir(): string {
  return findEdFiInputsDir();
}
