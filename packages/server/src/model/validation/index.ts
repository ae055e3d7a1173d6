// Public surface of request-body validation: per-resource validators and the result types the HTTP layer maps.
export { validatorFor } from './validator-registry.js';
export { compileUnifiedValuesReader, type UnifiedValue, type UnifiedValuesReader } from './key-unification.js';
export { messages } from './messages.js';
export { convertDate, convertDateTime, convertTime } from './scalar-conversion.js';
export type { ResourceValidator } from './resource-validator.js';
export type { DescriptorLookup, DescriptorUri } from './descriptor-existence.js';
export type {
  JsonObject,
  JsonValue,
  ResourceDocument,
  ValidationErrors,
  ValidationFailure,
  ValidationFailureKind,
  ValidationResult,
} from './validation-result.js';
