// Public surface of claim-set administration: import (ODS security-metadata XML or our JSON), list, export, delete.
export {
  ClaimSetAdministrationError,
  deleteImportedClaimSet,
  exportClaimSets,
  importClaimSets,
  importClaimSetsJson,
  listAllClaimSets,
  readClaimSetFile,
  resolveImportedClaimSet,
  type ClaimSetStore,
  type ClaimSetSummary,
} from './claim-set-administration.js';
export { ClaimSetImportError, type DraftClaimSet, type DraftImport } from './claim-set-drafts.js';
export { claimSetsJson, claimSetsXml } from './claim-set-export.js';
