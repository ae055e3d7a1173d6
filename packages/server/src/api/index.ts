// Public surface of the data operations: one function per operation, the problem catalogue and the request types.
export { upsertDocument } from './upsert.js';
export { updateDocument } from './update.js';
export { readDocument } from './read.js';
export { queryDocuments } from './query.js';
export { deleteDocument } from './delete.js';
export { deletedDocuments, keyChanges } from './tracked-changes.js';
export { partitionDocuments } from './partitions.js';
export { availableChangeVersions } from './available-change-versions.js';
export { refuseSnapshotWrites } from './snapshot.js';
export { collectionDeletion, collectionReplacement, itemPost } from './unsupported-operations.js';
export {
  allowEveryAction,
  type Authorization,
  type AuthorizedItem,
  type Authorize,
  type AuthorizationRequest,
  type DataPhase,
} from './authorization.js';
export { SYSTEM_CALLER, type Caller } from './caller.js';
export type { DataRequest, DataServices, QueryParameters, ReadRequest } from './data-request.js';
export type { DataResponse } from './data-response.js';
export { ApiProblem, problemTypes, type ProblemName, type ProblemOptions, type ProblemType } from './problems.js';
export { problemBody } from './problem-body.js';
export { parseResourceId } from './resource-id.js';
