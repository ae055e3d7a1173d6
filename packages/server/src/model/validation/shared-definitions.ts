// The nested object schemas of every resource's document schema, shared: a reference, an address or a collection item
// with the same members and messages is one schema under one id, compiled once however many resources hold it.
import type { SchemaObject } from 'ajv';

/** Receives each new schema with its id, e.g. to hand it to Ajv. */
export type DefinitionSink = (id: string, schema: SchemaObject) => void;

export class SharedDefinitions {
  readonly #idsByText = new Map<string, string>();
  readonly #add: DefinitionSink;

  constructor(add: DefinitionSink) {
    this.#add = add;
  }

  /**
   * The `$ref` to the schema equal to this one. Its nested objects are references already, so equal text is an equal
   * schema.
   */
  refTo(schema: SchemaObject): SchemaObject {
    const text = JSON.stringify(schema);
    let id = this.#idsByText.get(text);
    if (id === undefined) {
      id = `edfi-object-${this.#idsByText.size}`;
      this.#idsByText.set(text, id);
      this.#add(id, schema);
    }
    return { $ref: id };
  }
}
