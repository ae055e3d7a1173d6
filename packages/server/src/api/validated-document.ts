// The validation step: a request body becomes the canonical document, or the contract's 400 (§3.4, §3.5, §6.5, §7).
import type { ResourceModel } from '../model/index.js';
import {
  validatorFor,
  type DescriptorLookup,
  type ResourceDocument,
  type ValidationFailure,
  type ValidationResult,
} from '../model/validation/index.js';
import { ApiProblem } from './problems.js';

const CLIENT_ASSIGNED_ID_DETAIL = 'The request data was constructed incorrectly.';

function problemOf(failure: ValidationFailure): ApiProblem {
  const { validationErrors, errors } = failure;
  if (failure.kind === 'client-assigned-id') {
    return new ApiProblem('dataValidationFailed', { detail: CLIENT_ASSIGNED_ID_DETAIL, errors });
  }
  // A message without a path (the empty POST body) makes the ODS answer a plain bad request.
  if (validationErrors === undefined) return new ApiProblem('badRequest', { errors });
  return new ApiProblem('dataValidationFailed', { validationErrors });
}

function documentOf(result: ValidationResult): ResourceDocument {
  if (!result.ok) throw problemOf(result.failure);
  return result.document;
}

/** POST: an `id` in the body is rejected. */
export async function validInsertDocument(
  resource: ResourceModel,
  body: unknown,
  descriptors: DescriptorLookup,
): Promise<ResourceDocument> {
  return documentOf(await validatorFor(resource).validateInsertWithDescriptors(body, descriptors));
}

/** PUT: an `id` in the body is ignored, and the document carries none (the route's id is the target). */
export async function validUpdateDocument(
  resource: ResourceModel,
  body: unknown,
  id: string,
  descriptors: DescriptorLookup,
): Promise<ResourceDocument> {
  const result = await validatorFor(resource).validateUpdateWithDescriptors(body, id, descriptors);
  const { id: _routeId, ...document } = documentOf(result);
  return document;
}
