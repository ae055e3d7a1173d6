// The one Ajv instance of the server, with the Ed-Fi keywords, compiling a resource's document schema.
import { Ajv, type ValidateFunction } from 'ajv';
import type { ResourceModel } from '../index.js';
import { addEdFiKeywords } from './ajv-keywords.js';
import { buildDocumentSchema } from './document-schema.js';
import { SharedDefinitions } from './shared-definitions.js';
import type { JsonObject } from './validation-result.js';

// allErrors: the contract reports every failure at once; verbose: errors carry the schema holding their message.
// No optimisation pass over the generated code: it took about 40 % of each compile (a server compiles a validator per
// resource on first use: 0.85 s for the 104 of the Grand Bend sample, 0.5 s without) and the validators run as fast.
const ajv = new Ajv({ allErrors: true, verbose: true, messages: false, inlineRefs: false, code: { optimize: false } });
addEdFiKeywords(ajv);

const definitions = new SharedDefinitions((id, schema) => ajv.addSchema({ ...schema, $id: id }));
/** Compiled schemas by their text: resources with equal documents (every descriptor) share one validator. */
const compiled = new Map<string, ValidateFunction<JsonObject>>();

export function compileDocumentSchema(resource: ResourceModel): ValidateFunction<JsonObject> {
  const schema = buildDocumentSchema(resource, definitions);
  const text = JSON.stringify(schema);
  let validate = compiled.get(text);
  if (validate === undefined) {
    validate = ajv.compile<JsonObject>(schema);
    compiled.set(text, validate);
  }
  return validate;
}
