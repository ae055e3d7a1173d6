// Test helpers: model resources by endpoint, a descriptor lookup over the model's default values, and failure readers.
import { expect } from 'vitest';
import { getModelRegistry, type ResourceModel } from '../../src/model/index.js';
import {
  validatorFor,
  type DescriptorLookup,
  type ValidationErrors,
  type ValidationFailure,
  type ValidationResult,
} from '../../src/model/validation/index.js';

export function resource(endpoint: string, namespace = 'ed-fi'): ResourceModel {
  const found = getModelRegistry().getResource(namespace, endpoint);
  if (!found) throw new Error(`No resource ${namespace}/${endpoint}`);
  return found;
}

/**
 * Knows the model's default descriptor values, compared case-insensitively as the ODS descriptor cache does.
 * Descriptor types without default values (all of TPDM, a few of Ed-Fi) accept any well-formed URI here.
 */
export const defaultDescriptors: DescriptorLookup = {
  exist: async (uris) => uris.map(({ descriptor, uri }) => isDefaultValue(descriptor, uri)),
};

function isDefaultValue(descriptor: string, uri: string): boolean {
  const values = getModelRegistry().descriptorValuesOf(descriptor);
  const wanted = uri.toLowerCase();
  return (
    values.length === 0 || values.some((value) => `${value.namespace}#${value.codeValue}`.toLowerCase() === wanted)
  );
}

export function failureOf(result: ValidationResult): ValidationFailure {
  if (result.ok) throw new Error(`Expected a failure, got ${JSON.stringify(result.document)}`);
  return result.failure;
}

/** A POST validated with descriptor existence against the default values. */
export function insertResult(endpoint: string, body: unknown, namespace = 'ed-fi'): Promise<ValidationResult> {
  return validatorFor(resource(endpoint, namespace)).validateInsertWithDescriptors(body, defaultDescriptors);
}

/** The `validationErrors` of an insert that must fail data validation. */
export async function insertErrors(endpoint: string, body: unknown, namespace = 'ed-fi'): Promise<ValidationErrors> {
  const failure = failureOf(await insertResult(endpoint, body, namespace));
  expect(failure.kind).toBe('invalid-data');
  return failure.validationErrors ?? {};
}

export async function insertDocument(
  endpoint: string,
  body: unknown,
  namespace = 'ed-fi',
): Promise<Record<string, unknown>> {
  const result = await insertResult(endpoint, body, namespace);
  if (!result.ok) throw new Error(`Expected success, got ${JSON.stringify(result.failure)}`);
  return result.document;
}

/** Appendix D's enrollment: a valid studentSchoolAssociation body. */
export function enrollment(): Record<string, unknown> {
  return {
    studentReference: { studentUniqueId: '604822' },
    schoolReference: { schoolId: 255901001 },
    entryDate: '2021-08-23',
    entryGradeLevelDescriptor: 'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade',
  };
}
