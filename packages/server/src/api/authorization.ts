// The authorization step of every data operation: a seam for claim-set and relationship checks (contract §8).
import type { ClaimAction, ResourceModel } from '../model/index.js';

/** Who is calling, as authentication established it. */
export interface Caller {
  readonly clientId: string | undefined;
}

export interface AuthorizationRequest {
  readonly action: ClaimAction;
  readonly resource: ResourceModel;
  readonly caller: Caller;
}

/** Resolves when the caller may perform the action on the resource; throws an ApiProblem (403) otherwise. */
export type Authorize = (request: AuthorizationRequest) => void | Promise<void>;

/** Until claim sets are enforced, every authenticated caller may do everything. */
export const allowEveryAction: Authorize = () => undefined;
