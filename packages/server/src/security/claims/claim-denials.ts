// The 403 problems of the claim-set check (contract §8.7), naming the claim lineage the caller would need.
import { ApiProblem } from '../../api/problems.js';
import type { ClaimAction } from '../../model/index.js';
import { actionUri } from './claim-uris.js';

function quotedList(claimUris: readonly string[]): string {
  return claimUris.map((uri) => `'${uri}'`).join(', ');
}

/** The claim set holds no claim on the resource or any of its parents. */
export function resourceDenied(claimSetName: string, lineage: readonly string[]): ApiProblem {
  return new ApiProblem('accessDeniedResource', {
    errors: [
      `The API client's assigned claim set (currently '${claimSetName}') must include one of the following resource ` +
        `claims to provide access to this resource: ${quotedList(lineage)}.`,
    ],
  });
}

/** The claim set holds claims on the resource's lineage, but none grants the action. */
export function actionDenied(claimSetName: string, action: ClaimAction, lineage: readonly string[]): ApiProblem {
  return new ApiProblem('accessDeniedAction', {
    errors: [
      `The API client's assigned claim set (currently '${claimSetName}') must grant permission of the ` +
        `'${actionUri(action)}' action on one of the following resource claims: ${quotedList(lineage)}.`,
    ],
  });
}
