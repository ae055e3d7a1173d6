// Public surface of the test-data generator: valid minimal and full documents for any resource, from a seed.
export {
  fullDocument,
  minimalDocument,
  type GenerateOptions,
  type ReferenceRequest,
  type ReferenceResolver,
} from './document-generator.js';
