// The one Ajv instance of the server, with the Ed-Fi keywords, compiling a resource's document schema.
import { Ajv, type ValidateFunction } from 'ajv';
import type { ResourceModel } from '../index.js';
import { addEdFiKeywords } from './ajv-keywords.js';
import { buildDocumentSchema } from './document-schema.js';
import type { JsonObject } from './validation-result.js';

// allErrors: the contract reports every failure at once; verbose: errors carry the schema holding their message.
// No optimisation pass over the generated code: it took about 40 % of each compile (a server compiles a validator per
// resource on first use: 0.85 s for the 104 of the Grand Bend sample, 0.5 s without) and the validators run as fast.
const ajv = new Ajv({ allErrors: true, verbose: true, messages: false, inlineRefs: false, code: { optimize: false } });
addEdFiKeywords(ajv);

export function compileDocumentSchema(resource: ResourceModel): ValidateFunction<JsonObject> {
  return ajv.compile<JsonObject>(buildDocumentSchema(resource));
}
