// One validator per resource, compiled on first use and kept for the life of the model object.
import type { ResourceModel } from '../index.js';
import { compileResourceValidator, type ResourceValidator } from './resource-validator.js';

const validators = new WeakMap<ResourceModel, ResourceValidator>();

export function validatorFor(resource: ResourceModel): ResourceValidator {
  let validator = validators.get(resource);
  if (!validator) {
    validator = compileResourceValidator(resource);
    validators.set(resource, validator);
  }
  return validator;
}
