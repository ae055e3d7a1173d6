// A resource's request-body validator: reads the body into a canonical document, then checks it (Ajv schema, key
// unification, optional descriptor existence), reporting every failure of the document at once (contract §7).
import type { ResourceModel } from '../index.js';
import { addAjvErrors } from './ajv-error-mapping.js';
import {
  compileDescriptorExistenceCheck,
  type DescriptorExistenceCheck,
  type DescriptorLookup,
} from './descriptor-existence.js';
import { compileDocumentReader } from './document-reader.js';
import { compileKeyUnificationCheck } from './key-unification.js';
import { messages } from './messages.js';
import { compileDocumentSchema } from './schema-compiler.js';
import { ValidationErrorsBuilder } from './validation-errors-builder.js';
import type { ValidationFailure, ValidationResult } from './validation-result.js';

export interface ValidationOptions {
  /** When given, descriptor URIs must exist (`XDescriptor value '…' does not exist.`); otherwise only their shape is checked. */
  readonly descriptors?: DescriptorLookup;
}

export interface ResourceValidator {
  readonly resource: ResourceModel;
  /** POST: an `id` in the body is rejected. */
  validateInsert(body: unknown, options?: ValidationOptions): ValidationResult;
  /** PUT: an `id` in the body is ignored; the document carries the route's `id`. */
  validateUpdate(body: unknown, id: string, options?: ValidationOptions): ValidationResult;
}

function rejected(failure: ValidationFailure): ValidationResult {
  return { ok: false, failure };
}

/** POST reports an empty body in `errors`, PUT under `$` in `validationErrors` (contract §6.5). */
function emptyBody(isInsert: boolean): ValidationResult {
  return isInsert
    ? rejected({ kind: 'empty-body', errors: [messages.nonEmptyBodyRequired] })
    : rejected({ kind: 'empty-body', validationErrors: { $: [messages.nonEmptyBodyRequired] } });
}

function notAnObject(body: unknown, resourceName: string): ValidationResult {
  const message = Array.isArray(body)
    ? messages.conversion.arrayForObject(resourceName, '')
    : messages.conversion.scalarForObject(
        typeof body === 'string' ? JSON.stringify(body) : String(body),
        resourceName,
        '',
      );
  return rejected({ kind: 'not-an-object', validationErrors: { $: [message] } });
}

/** Property names bind case-insensitively, so `Id` is the `id` too. */
function hasClientAssignedId(body: object): boolean {
  for (const key in body) {
    if (key.length === 2 && key.toLowerCase() === 'id' && (body as Record<string, unknown>)[key] != null) return true;
  }
  return false;
}

export function compileResourceValidator(resource: ResourceModel): ResourceValidator {
  const read = compileDocumentReader(resource.shape, resource.resourceName);
  const matchesSchema = compileDocumentSchema(resource);
  const checkKeyUnification = compileKeyUnificationCheck(resource);
  let checkDescriptors: DescriptorExistenceCheck | undefined;

  function validate(body: unknown, isInsert: boolean, options: ValidationOptions | undefined): ValidationResult {
    if (body === undefined || body === null) return emptyBody(isInsert);
    if (typeof body !== 'object' || Array.isArray(body)) return notAnObject(body, resource.resourceName);
    const { document, errors: conversionErrors } = read(body);
    if (conversionErrors) return rejected({ kind: 'invalid-data', validationErrors: conversionErrors });
    if (isInsert && hasClientAssignedId(body)) {
      return rejected({ kind: 'client-assigned-id', errors: [messages.clientAssignedId] });
    }
    const errors = new ValidationErrorsBuilder();
    if (!matchesSchema(document)) addAjvErrors(matchesSchema.errors ?? [], errors);
    checkKeyUnification?.(document, errors);
    if (options?.descriptors) {
      checkDescriptors ??= compileDescriptorExistenceCheck(resource);
      checkDescriptors(document, options.descriptors, errors);
    }
    return errors.isEmpty
      ? { ok: true, document }
      : rejected({ kind: 'invalid-data', validationErrors: errors.build() });
  }

  return {
    resource,
    validateInsert: (body, options) => validate(body, true, options),
    validateUpdate: (body, id, options) => {
      const result = validate(body, false, options);
      return result.ok ? { ok: true, document: { id, ...result.document } } : result;
    },
  };
}
