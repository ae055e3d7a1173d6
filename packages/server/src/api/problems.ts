// The Ed-Fi problem-type catalogue (contract §6.2): every problem the server reports is declared here once, and
// raised by name as an ApiProblem; the HTTP layer renders it (src/http/problem-details.ts).

export interface ProblemType {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
}

const dependentItemExists = {
  type: 'urn:ed-fi:api:data-conflict:dependent-item-exists',
  title: 'Dependent Item Exists',
  status: 409,
} as const;

const AUTHORIZATION_TYPE = 'urn:ed-fi:api:security:authorization';
const NOT_AUTHORIZED = 'Access to the requested data could not be authorized.';

/** A 403 of data authorization; callers give the detail (it names the property or prefixes involved). */
function denied(typeSuffix: string, detailSuffix: string): ProblemType {
  return {
    type: `${AUTHORIZATION_TYPE}${typeSuffix}`,
    title: 'Authorization Denied',
    status: 403,
    detail: `${NOT_AUTHORIZED}${detailSuffix}`,
  };
}

const PROFILE_USAGE_DETAIL = 'The request construction was invalid with respect to usage of a data policy.';

/** A misuse of a profile media type (contract §9.1): 400, or 406/415 for a profile this host cannot apply. */
function profileUsage(status: number): ProblemType {
  return {
    type: 'urn:ed-fi:api:profile:invalid-profile-usage',
    title: 'Invalid Profile Usage',
    status,
    detail: PROFILE_USAGE_DETAIL,
  };
}

export const problemTypes = {
  badRequest: {
    type: 'urn:ed-fi:api:bad-request',
    title: 'Bad Request',
    status: 400,
    detail: "The request could not be processed. See 'errors' for details.",
  },
  dataValidationFailed: {
    type: 'urn:ed-fi:api:bad-request:data-validation-failed',
    title: 'Data Validation Failed',
    status: 400,
    detail: "Data validation failed. See 'validationErrors' for details.",
  },
  keyChangeNotSupported: {
    type: 'urn:ed-fi:api:bad-request:data-validation-failed:key-change-not-supported',
    title: 'Key Change Not Supported',
    status: 400,
    detail: 'Identifying values for the resource data cannot be changed. Delete and recreate the item instead.',
  },
  parameterValidationFailed: {
    type: 'urn:ed-fi:api:bad-request:parameter-validation-failed',
    title: 'Parameter Validation Failed',
    status: 400,
    detail: 'The request construction was invalid.',
  },
  authenticationFailed: {
    type: 'urn:ed-fi:api:security:authentication',
    title: 'Authentication Failed',
    status: 401,
    detail: 'The caller could not be authenticated.',
  },
  /** The caller's claim set holds no claim on the resource or its parents (contract §8.7). */
  accessDeniedResource: {
    type: 'urn:ed-fi:api:security:authorization:access-denied:resource',
    title: 'Authorization Denied',
    status: 403,
    detail: 'Access to the requested data could not be authorized. You do not have permissions to access this data.',
  },
  /** The claim set has claims on the resource, but none grants the action (contract §8.7). */
  accessDeniedAction: {
    type: 'urn:ed-fi:api:security:authorization:access-denied:action',
    title: 'Authorization Denied',
    status: 403,
    detail:
      'Access to the requested data could not be authorized. You do not have permissions to perform the requested ' +
      'operation on the data.',
  },
  notFound: {
    type: 'urn:ed-fi:api:not-found',
    title: 'Not Found',
    status: 404,
    detail: 'The specified data could not be found.',
  },
  methodNotAllowed: {
    type: 'urn:ed-fi:api:method-not-allowed',
    title: 'Method Not Allowed',
    status: 405,
    detail: 'The request construction was invalid.',
  },
  snapshotMethodNotAllowed: {
    type: 'urn:ed-fi:api:snapshots:method-not-allowed',
    title: 'Method Not Allowed with Snapshots',
    status: 405,
    detail: 'An attempt was made to modify data in a Snapshot, but this data is read-only.',
  },
  unresolvedReference: {
    type: 'urn:ed-fi:api:data-conflict:unresolved-reference',
    title: 'Unresolved Reference',
    status: 409,
    detail: 'A referenced item does not exist.',
  },
  dependentItemExists: {
    ...dependentItemExists,
    detail: 'The requested action cannot be performed because this item is referenced by another item.',
  },
  /**
   * An identity update whose cascade would rewrite more documents than the store allows (its
   * `maxCascadeDocuments`): refused as a conflict with the items that depend on the key, so nothing changes.
   */
  cascadeLimitExceeded: {
    ...dependentItemExists,
    detail:
      'The identifying values of this item cannot be changed because too many items that reference it would have to ' +
      'change with it.',
  },
  nonUniqueIdentity: {
    type: 'urn:ed-fi:api:data-conflict:non-unique-identity',
    title: 'Identifying Values Are Not Unique',
    status: 409,
    detail: 'The identifying value(s) of the item are the same as another item that already exists.',
  },
  multiUserConflict: {
    type: 'urn:ed-fi:api:data-conflict:multi-user-conflict',
    title: 'Multi-User Conflict',
    status: 409,
    // The ODS's sentence, its grammar included.
    detail:
      'The item was modified or deleted by another user while processing the request. Resending this request will ' +
      'either recreate the item, or introduce of copy with a different identifier.',
  },
  optimisticLockFailed: {
    type: 'urn:ed-fi:api:optimistic-lock-failed',
    title: 'Optimistic Lock Failed',
    status: 412,
    detail: 'The item has been modified by another user.',
  },
  unsupportedMediaType: {
    type: 'urn:ed-fi:api:unsupported-media-type',
    title: 'Unsupported Media Type',
    status: 415,
    detail: 'The request construction was invalid.',
  },
  /** No relationship between the caller's ed-orgs and the item (contract §8.7); hints extend the detail. */
  relationshipsDenied: denied('', ''),
  elementRequired: denied(':relationships:access-denied:element-required', ''),
  elementUninitialized: denied(':relationships:invalid-data:element-uninitialized', ''),
  namespaceMismatch: denied(':namespace:access-denied:namespace-mismatch', ''),
  namespaceRequired: denied(
    ':namespace:access-denied:namespace-required',
    " The 'Namespace' value has not been assigned but is required for authorization purposes.",
  ),
  namespaceUninitialized: denied(
    ':namespace:invalid-data:namespace-uninitialized',
    " The existing 'Namespace' value has not been assigned but is required for authorization purposes.",
  ),
  noNamespaces: denied(':namespace:invalid-client:no-namespaces', ''),
  ownershipMismatch: denied(':ownership:access-denied:ownership-mismatch', ' The item is not owned by the caller.'),
  ownershipUninitialized: denied(
    ':ownership:invalid-data:ownership-uninitialized',
    ' The item is not owned by the caller.',
  ),
  /** Profiles (contract §9.1): what a profile keeps a write from saving. */
  dataPolicyEnforced: {
    type: 'urn:ed-fi:api:bad-request:data-policy-enforced',
    title: 'Data Policy Enforced',
    status: 400,
    detail: 'The data cannot be saved because a data policy has been applied to the request that prevents it.',
  },
  invalidProfileUsage: profileUsage(400),
  profileNotAcceptable: profileUsage(406),
  profileUnsupportedMediaType: profileUsage(415),
  profileMethodUsage: {
    type: 'urn:ed-fi:api:profile:method-usage',
    title: 'Method Not Allowed with Profile',
    status: 405,
    detail: PROFILE_USAGE_DETAIL,
  },
  dataPolicyIncorrectUsage: {
    type: 'urn:ed-fi:api:security:data-policy:incorrect-usage',
    title: 'Data Policy Failure Due to Incorrect Usage',
    status: 403,
    detail: PROFILE_USAGE_DETAIL,
  },
  /** A client asking for a token while it holds the maximum of unexpired ones (contract §2.3 row 12). */
  tooManyTokens: {
    type: 'urn:ed-fi:api:security:authentication:too-many-tokens',
    title: 'Too Many Tokens',
    status: 429,
    detail: 'The caller has authenticated too many times in too short of a time period.',
  },
  /** Our own (the ODS has none): too many failed credential checks from one key or address (issue 14). */
  tooManyFailedAttempts: {
    type: 'urn:ed-fi:api:security:authentication:too-many-failed-attempts',
    title: 'Too Many Failed Attempts',
    status: 429,
    detail: 'Too many failed authentication attempts; try again after the time given in Retry-After.',
  },
  /** Our own (the ODS has none): the database's disk is full; nothing was written, and the request may be retried. */
  storageFull: {
    type: 'urn:ed-fi:api:service-unavailable:storage-full',
    title: 'Service Unavailable',
    status: 503,
    detail: 'The data store has no space left; the request was not processed. Try again later.',
  },
  system: {
    type: 'urn:ed-fi:api:system',
    title: 'System Error',
    status: 500,
    detail: 'An unexpected problem has occurred.',
  },
} as const satisfies Record<string, ProblemType>;

export type ProblemName = keyof typeof problemTypes;

export interface ProblemOptions {
  /** Replaces the catalogue's default detail. */
  readonly detail?: string;
  readonly validationErrors?: Readonly<Record<string, readonly string[]>>;
  readonly errors?: readonly string[];
  /** Extra response headers (e.g. `Allow` on a routing 405). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The ODS writes problems raised before a controller runs (authentication, routing, media type) with
   * `application/problem+json`; problems from controllers use `application/json`.
   */
  readonly raisedBeforeController?: boolean;
}

/** A problem-details response waiting to be rendered; thrown by the request steps. */
export class ApiProblem extends Error {
  readonly problem: ProblemType;
  readonly detail: string;
  readonly validationErrors: Readonly<Record<string, readonly string[]>> | undefined;
  readonly errors: readonly string[] | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly raisedBeforeController: boolean;

  constructor(name: ProblemName, options: ProblemOptions = {}) {
    const problem = problemTypes[name];
    const detail = options.detail ?? problem.detail;
    super(detail);
    this.name = 'ApiProblem';
    this.problem = problem;
    this.detail = detail;
    this.validationErrors = options.validationErrors;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.raisedBeforeController = options.raisedBeforeController ?? false;
  }
}
