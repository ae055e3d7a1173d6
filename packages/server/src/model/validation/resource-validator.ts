// A resource's request-body validator: reads the body into a canonical document, then checks it (Ajv schema, key
// unification, optional descriptor existence), reporting every failure of the document at once (contract §7).
import type { ResourceModel } from '../index.js';
import { addAjvErrors, isWithinAny } from './ajv-error-mapping.js';
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
import type { ResourceDocument, ValidationFailure, ValidationResult } from './validation-result.js';

export interface ResourceValidator {
  readonly resource: ResourceModel;
  /** POST: an `id` in the body is rejected. Descriptor URIs are checked for their shape only. */
  validateInsert(body: unknown): ValidationResult;
  /** PUT: an `id` in the body is ignored; the document carries the route's `id`. Descriptor URIs: shape only. */
  validateUpdate(body: unknown, id: string): ValidationResult;
  /** POST, and every descriptor URI must exist (`XDescriptor value '…' does not exist.`), asked of `descriptors` once. */
  validateInsertWithDescriptors(body: unknown, descriptors: DescriptorLookup): Promise<ValidationResult>;
  /** PUT, and every descriptor URI must exist, asked of `descriptors` once. */
  validateUpdateWithDescriptors(body: unknown, id: string, descriptors: DescriptorLookup): Promise<ValidationResult>;
}

/** A body read into a document and checked, up to descriptor existence; `errors` may already hold messages. */
interface CheckedDocument {
  readonly document: ResourceDocument;
  readonly errors: ValidationErrorsBuilder;
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

function resultOf({ document, errors }: CheckedDocument): ValidationResult {
  return errors.isEmpty ? { ok: true, document } : rejected({ kind: 'invalid-data', validationErrors: errors.build() });
}

function settled(checked: ValidationResult | CheckedDocument): ValidationResult {
  return 'ok' in checked ? checked : resultOf(checked);
}

function withRouteId(result: ValidationResult, id: string): ValidationResult {
  return result.ok ? { ok: true, document: { id, ...result.document } } : result;
}

export function compileResourceValidator(resource: ResourceModel): ResourceValidator {
  const read = compileDocumentReader(resource.shape, resource.resourceName);
  const matchesSchema = compileDocumentSchema(resource);
  const checkKeyUnification = compileKeyUnificationCheck(resource);
  let checkDescriptors: DescriptorExistenceCheck | undefined;

  /** Everything but descriptor existence; a body that cannot become a document is settled here. */
  function check(body: unknown, isInsert: boolean): ValidationResult | CheckedDocument {
    if (body === undefined || body === null) return emptyBody(isInsert);
    if (typeof body !== 'object' || Array.isArray(body)) return notAnObject(body, resource.resourceName);
    const { document, errors: conversionErrors } = read(body);
    if (conversionErrors) return rejected({ kind: 'invalid-data', validationErrors: conversionErrors });
    if (isInsert && hasClientAssignedId(body)) {
      return rejected({ kind: 'client-assigned-id', errors: [messages.clientAssignedId] });
    }
    const errors = new ValidationErrorsBuilder();
    const partialReferences = matchesSchema(document) ? [] : addAjvErrors(matchesSchema.errors ?? [], errors);
    // The values of an incomplete reference are reported as missing, not compared.
    checkKeyUnification?.(document, errors, (path) => isWithinAny(partialReferences, path));
    return { document, errors };
  }

  async function validateWithDescriptors(
    body: unknown,
    isInsert: boolean,
    descriptors: DescriptorLookup,
  ): Promise<ValidationResult> {
    const checked = check(body, isInsert);
    if ('ok' in checked) return checked;
    checkDescriptors ??= compileDescriptorExistenceCheck(resource);
    await checkDescriptors(checked.document, descriptors, checked.errors);
    return resultOf(checked);
  }

  return {
    resource,
    validateInsert: (body) => settled(check(body, true)),
    validateUpdate: (body, id) => withRouteId(settled(check(body, false)), id),
    validateInsertWithDescriptors: (body, descriptors) => validateWithDescriptors(body, true, descriptors),
    validateUpdateWithDescriptors: async (body, id, descriptors) =>
      withRouteId(await validateWithDescriptors(body, false, descriptors), id),
  };
}
