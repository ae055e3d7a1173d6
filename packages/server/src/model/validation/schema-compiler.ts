// The one Ajv instance of the server, with the Ed-Fi keywords, compiling a resource's document schema.
import { Ajv, type ValidateFunction } from 'ajv';
import type { ResourceModel } from '../index.js';
import { addEdFiKeywords } from './ajv-keywords.js';
import { buildDocumentSchema } from './document-schema.js';
import type { JsonObject } from './validation-result.js';

// allErrors: the contract reports every failure at once; verbose: errors carry the schema holding their message.
const ajv = new Ajv({ allErrors: true, verbose: true, messages: false, inlineRefs: false });
addEdFiKeywords(ajv);

export function compileDocumentSchema(resource: ResourceModel): ValidateFunction<JsonObject> {
  return ajv.compile<JsonObject>(buildDocumentSchema(resource));
}
