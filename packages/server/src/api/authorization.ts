// The authorization step of every data operation (contract §8): the claim check answers what the operation must still
// enforce on the data, a store filter for reads of many items and a check of one item's securable values.
import type { ClaimAction, DocumentSecurables, ResourceModel } from '../model/index.js';
import type { AccessFilter, DocumentId } from '../store/store.js';
import type { Caller } from './caller.js';

export interface AuthorizationRequest {
  readonly action: ClaimAction;
  readonly resource: ResourceModel;
  readonly caller: Caller;
}

/** Whose values an item check looks at: the stored item's, or the request's (messages differ). */
export type DataPhase = 'existing' | 'proposed';

/** What an item check looks at: the securable values, and for a stored item its id (ownership is kept by id). */
export interface AuthorizedItem {
  readonly securables: DocumentSecurables;
  readonly id?: DocumentId;
}

export interface Authorization {
  /** What lists, partitions and change feeds keep; undefined when every item is authorized. */
  readonly filter: AccessFilter | undefined;
  /** Throws the 403 ApiProblem when the item's securable values are not authorized. */
  authorizeItem(item: AuthorizedItem, phase: DataPhase): Promise<void>;
}

/** Checks the claim set (throwing a 403 ApiProblem when it does not grant the action) and returns what data must pass. */
export type Authorize = (request: AuthorizationRequest) => Authorization | Promise<Authorization>;

const UNRESTRICTED: Authorization = { filter: undefined, authorizeItem: async () => undefined };

/** For trusted in-process callers (first-start seeding, tests): every action on every item. */
export const allowEveryAction: Authorize = () => UNRESTRICTED;
