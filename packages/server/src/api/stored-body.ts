// The body a document is stored with: the canonical document with every collection present, `[]` when the client
// left it out, so reads render collections without touching the JSON (contract §3.9, §9.5).
import type { PropertyShape, ResourceModel } from '../model/index.js';
import type { JsonObject, JsonValue, ResourceDocument } from '../model/validation/index.js';

type ObjectCompleter = (node: JsonObject) => JsonObject;

const completers = new WeakMap<ResourceModel, ObjectCompleter | null>();

function hasCollection(shape: PropertyShape): boolean {
  return Object.values(shape.properties ?? {}).some(
    (property) => property.type === 'array' || (property.type === 'object' && hasCollection(property)),
  );
}

function completeItems(items: JsonValue, complete: ObjectCompleter | undefined): JsonValue {
  if (complete === undefined || !Array.isArray(items)) return items;
  return items.map((item) => complete(item as JsonObject));
}

/** Rebuilds an object in model order, adding missing collections as `[]`; undefined when nothing below needs it. */
function compileCompleter(shape: PropertyShape): ObjectCompleter | undefined {
  if (!hasCollection(shape)) return undefined;
  const members = Object.entries(shape.properties ?? {}).map(([name, property]) => {
    if (property.type === 'array') {
      const completeItem = compileCompleter(property.items ?? { type: 'object' });
      return { name, isCollection: true, complete: (value: JsonValue) => completeItems(value, completeItem) };
    }
    const completeObject = property.type === 'object' ? compileCompleter(property) : undefined;
    const complete =
      completeObject === undefined ? undefined : (value: JsonValue) => completeObject(value as JsonObject);
    return { name, isCollection: false, complete };
  });
  return (node) => {
    const completed: JsonObject = {};
    for (const { name, isCollection, complete } of members) {
      const value = node[name];
      if (value === undefined) {
        if (isCollection) completed[name] = [];
      } else completed[name] = complete === undefined ? value : complete(value);
    }
    return completed;
  };
}

export function storedBodyOf(resource: ResourceModel, document: ResourceDocument): ResourceDocument {
  let complete = completers.get(resource);
  if (complete === undefined) {
    complete = compileCompleter(resource.shape) ?? null;
    completers.set(resource, complete);
  }
  return complete === null ? document : complete(document);
}
