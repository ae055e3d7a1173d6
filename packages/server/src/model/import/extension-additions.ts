// Builds an extension's additions to a resource of the model it extends: its `_ext.{namespace}` members at the root and
// inside collection items (MetaEd's `commonExtensionOverrides`), with the references, descriptors, collections and
// equality constraints inside them, named as the ODS names them.
import { extendedShape } from '../extension-models.js';
import type { JsonPath, PropertyShape, ResourceAddition, ResourceModel } from '../types.js';
import { collectionKeys, collectionsOfShape } from './collections.js';
import type { IntegerWidthResolver } from './integer-widths.js';
import { entitiesAt, nameMembers } from './member-names.js';
import type { OdsNames } from './ods-names.js';
import { sortByPath } from './ordering.js';
import { sortedEqualityConstraints, toDescriptorUse, toReference } from './resources.js';
import { convertJsonSchemaObject, type ShapeFacts } from './shape.js';
import type { SourceEntry, SourceIndex } from './source-index.js';
import type { JsonSchema } from './source-types.js';

export interface AdditionContext {
  /** The extension's index. */
  index: SourceIndex;
  integerWidth: IntegerWidthResolver;
  decimalBounds: ShapeFacts['decimalBounds'];
  odsNames: OdsNames;
}

/** Each object the addition extends (`$`, `$.addresses[*]`) → the schema of the `_ext` it gives that object. */
function extensionSchemas(addition: SourceEntry): Map<JsonPath, JsonSchema> {
  const schemas = new Map<JsonPath, JsonSchema>();
  const root = addition.resource.jsonSchemaForInsert?.properties?._ext;
  if (root) schemas.set('$', root);
  for (const fragment of addition.resource.commonExtensions ?? []) schemas.set(fragment.path, fragment.schema);
  return schemas;
}

/** The `_ext.{namespace}` shape at `path`, with its `required` flag, converted like any member. */
function partShape(namespace: string, schema: JsonSchema, path: JsonPath, facts: ShapeFacts): PropertyShape {
  const part = schema.properties?.[namespace];
  if (!part) throw new Error(`No ${namespace} part in the _ext schema at ${path}`);
  const projects: JsonSchema = {
    type: 'object',
    properties: { [namespace]: part },
    ...(schema.required?.includes(namespace) ? { required: [namespace] } : {}),
  };
  const extPath = path === '$' ? '$._ext' : `${path}._ext`;
  return convertJsonSchemaObject(projects, extPath, facts).properties![namespace]!;
}

export function buildAddition(
  addition: SourceEntry,
  extended: ResourceModel,
  context: AdditionContext,
): ResourceAddition {
  const { index } = context;
  const { namespace, resource: source } = addition;
  const identity = new Set(extended.identityPaths);
  const references = sortByPath((source.references ?? []).map((reference) => toReference(reference, identity, index)));
  const allReferences = [...extended.references, ...references];
  const descriptors = sortByPath(
    (source.descriptors ?? []).map((use) => toDescriptorUse(use, identity, allReferences, index)),
  );
  const facts: ShapeFacts = {
    identityPaths: extended.identityPaths,
    descriptorPaths: new Set([...extended.descriptors, ...descriptors].map((use) => use.path)),
    referencePaths: new Set(allReferences.map((reference) => reference.path)),
    decimals: source.decimals ?? {},
    integerWidth: (path) => context.integerWidth(extended.namespace, extended.endpoint, path),
    decimalBounds: context.decimalBounds,
  };
  const shapes: Record<JsonPath, PropertyShape> = {};
  for (const [path, schema] of extensionSchemas(addition)) {
    const parents = entitiesAt(extended, path, context.odsNames);
    shapes[path] = nameMembers(partShape(namespace, schema, path, facts), parents, context.odsNames);
  }
  const marker = `._ext.${namespace}`;
  const shape = extendedShape(extended, { shapes }, namespace);
  return {
    namespace: extended.namespace,
    endpoint: extended.endpoint,
    shapes,
    references,
    descriptors,
    collections: collectionsOfShape(shape, collectionKeys([source])).filter((collection) =>
      collection.path.includes(marker),
    ),
    equalityConstraints: sortedEqualityConstraints([source]),
  };
}
