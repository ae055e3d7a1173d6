// The JSON body of `PATCH /admin/clients/{key}`: a claim set and/or education organizations, checked for type.
import { ApiProblem } from '../../api/index.js';
import type { ClientChanges } from '../../security/index.js';

export function clientChangesOf(body: unknown): ClientChanges {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiProblem('badRequest', { errors: ['The body must be a JSON object.'] });
  }
  const errors: string[] = [];
  const { claimSet, educationOrganizationIds, ...others } = body as Record<string, unknown>;
  for (const name of Object.keys(others)) errors.push(`Unknown property '${name}'.`);
  if (claimSet !== undefined && typeof claimSet !== 'string') errors.push("'claimSet' must be a string.");
  if (
    educationOrganizationIds !== undefined &&
    !(Array.isArray(educationOrganizationIds) && educationOrganizationIds.every((id) => Number.isSafeInteger(id)))
  ) {
    errors.push("'educationOrganizationIds' must be an array of whole numbers.");
  }
  if (errors.length > 0) throw new ApiProblem('badRequest', { errors });
  return {
    ...(claimSet === undefined ? {} : { claimSet: claimSet as string }),
    ...(educationOrganizationIds === undefined
      ? {}
      : { educationOrganizationIds: educationOrganizationIds as number[] }),
  };
}
