// What validating a request body yields: a canonical document ready to store, or a failure in problem-details terms.

/** A JSON value as stored: plain objects, arrays and scalars only. */
export type JsonValue = string | number | boolean | JsonValue[] | JsonObject;
export interface JsonObject {
  [property: string]: JsonValue;
}

/** A resource document in canonical form: model property casing, model order, coerced values, no ignored members. */
export type ResourceDocument = JsonObject;

/** `validationErrors` of a problem-details body: JSON path (`$.a[0].b`) → messages. */
export type ValidationErrors = Record<string, string[]>;

/**
 * Why a body was rejected; the HTTP layer maps each kind to its problem type (contract §3.4, §3.5, §6.5, §7):
 * - `invalid-data`: 400 data-validation-failed, detail "Data validation failed. See 'validationErrors' for details."
 * - `client-assigned-id`: 400 data-validation-failed, detail "The request data was constructed incorrectly.", `errors`.
 * - `empty-body`: POST → 400 bad-request with `errors`; PUT → 400 data-validation-failed with `validationErrors` at `$`.
 * - `not-an-object`: 400 data-validation-failed, `validationErrors` at `$` (a JSON array or scalar was sent).
 */
export type ValidationFailureKind = 'invalid-data' | 'client-assigned-id' | 'empty-body' | 'not-an-object';

export interface ValidationFailure {
  readonly kind: ValidationFailureKind;
  /** Present when the contract keys the messages by JSON path. */
  readonly validationErrors?: ValidationErrors;
  /** Present when the contract lists the messages without a path. */
  readonly errors?: string[];
}

export type ValidationResult =
  | { readonly ok: true; readonly document: ResourceDocument }
  | { readonly ok: false; readonly failure: ValidationFailure };
