// Builds the ResourceModel of each non-descriptor resource from its source, merging the `_ext` additions of every
// extension project (at the root and inside collection items).
import type {
  DescriptorUse,
  EqualityConstraint,
  JsonPath,
  ReferenceField,
  ReferenceModel,
  ResourceModel,
  SuperclassModel,
} from '../../src/model/types.js';
import { isPathWithin, parseJsonPath } from '../../src/model/json-path.js';
import { collectionKeys, collectionsOfShape } from './collections.js';
import { withMemberNames } from './member-names.js';
import type { OdsNames } from './ods-names.js';
import { compareText, sortByPath, sortedText } from './ordering.js';
import { resourceKey, type OdsResourceFacts } from './ods-generated.js';
import { odsQueryFields } from './query-fields.js';
import { securableElementsOf } from './securables.js';
import { convertDerivedShape, convertJsonSchemaObject, type ShapeFacts } from './shape.js';
import { namespaceOfProject, type SourceEntry, type SourceIndex } from './source-index.js';
import type {
  DerivedDescriptorUse,
  DerivedReference,
  DerivedResource,
  DerivedShapeNode,
  JsonSchema,
} from './source-types.js';

export interface ResourceBuildContext {
  index: SourceIndex;
  integerWidth: (entry: SourceEntry, path: JsonPath) => 'int32' | 'int64' | undefined;
  decimalBounds: ShapeFacts['decimalBounds'];
  odsNames: OdsNames;
  odsFacts: OdsResourceFacts;
}

function toReference(reference: DerivedReference, identity: Set<JsonPath>, index: SourceIndex): ReferenceModel {
  return {
    path: reference.path,
    target: reference.target,
    targetNamespace: namespaceOfProject(reference.targetProject),
    targetIsAbstract: index.abstractNames.has(reference.target),
    required: reference.isRequired,
    partOfIdentity: reference.fields.some((field) => identity.has(field.referenceJsonPath)),
    fields: mergedFields(reference),
  };
}

/** One entry per reference field; the source repeats a field once per unified target column. */
function mergedFields(reference: DerivedReference): ReferenceField[] {
  const targets = new Map<JsonPath, JsonPath[]>();
  for (const field of reference.fields) {
    targets.set(field.referenceJsonPath, [...(targets.get(field.referenceJsonPath) ?? []), ...field.identityJsonPaths]);
  }
  return [...targets.keys()]
    .sort(compareText)
    .map((referencePath) => ({ referencePath, targetIdentityPaths: sortedText(targets.get(referencePath) ?? []) }));
}

function toDescriptorUse(
  use: DerivedDescriptorUse,
  identity: Set<JsonPath>,
  references: ReferenceModel[],
): DescriptorUse {
  return {
    path: use.path,
    descriptor: use.descriptor,
    descriptorNamespace: namespaceOfProject(use.descriptorProject),
    required: use.isRequired,
    partOfIdentity: identity.has(use.path),
    insideReference: references.some(
      (reference) => isPathWithin(use.path, reference.path) && use.path !== reference.path,
    ),
  };
}

function toSuperclass(source: DerivedResource['superclass']): SuperclassModel | undefined {
  if (!source) return undefined;
  const rename = Object.entries(source.identityRename ?? {})[0];
  return rename
    ? { resourceName: source.resourceName, identityRename: { from: rename[0], to: rename[1] } }
    : { resourceName: source.resourceName };
}

function sortedEqualityConstraints(sources: DerivedResource[]): EqualityConstraint[] {
  return sources
    .flatMap((source) => source.equalityConstraints ?? [])
    .map((constraint) => ({ sourcePath: constraint.sourceJsonPath, targetPath: constraint.targetJsonPath }))
    .sort((a, b) => compareText(a.sourcePath, b.sourcePath) || compareText(a.targetPath, b.targetPath));
}

/** The `_ext` schema at `path` (`$._ext` or a collection item's): each extending project's part under its name. */
function extensionSchemaAt(additions: readonly SourceEntry[], path: JsonPath, endpoint: string): JsonSchema {
  const projects: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const { namespace, resource } of additions) {
    const schema =
      path === '$._ext'
        ? resource.jsonSchemaForInsert?.properties?._ext
        : resource.commonExtensions?.find((fragment) => `${fragment.path}._ext` === path)?.schema;
    const part = schema?.properties?.[namespace];
    if (part) projects[namespace] = part;
    if (part && schema?.required?.includes(namespace)) required.push(namespace);
  }
  if (Object.keys(projects).length === 0) throw new Error(`No extension schema for ${path} of ${endpoint}`);
  return { type: 'object', properties: projects, ...(required.length > 0 ? { required } : {}) };
}

/** The source shape with an `_ext` node wherever an extending project adds members (the root, collection items). */
function withExtensionNodes(
  shape: Record<string, DerivedShapeNode>,
  additions: readonly SourceEntry[],
): Record<string, DerivedShapeNode> {
  const extension: DerivedShapeNode = { type: 'extension' };
  let result = shape;
  for (const { resource } of additions) {
    if (resource.jsonSchemaForInsert?.properties?._ext && !result._ext) result = { ...result, _ext: extension };
    for (const fragment of resource.commonExtensions ?? [])
      result = withNodeAt(result, parseJsonPath(fragment.path), extension);
  }
  return result;
}

function withNodeAt(
  members: Record<string, DerivedShapeNode>,
  segments: readonly { name: string; isArray: boolean }[],
  extension: DerivedShapeNode,
): Record<string, DerivedShapeNode> {
  const [first, ...rest] = segments;
  if (!first) return members._ext ? members : { ...members, _ext: extension };
  const node = members[first.name];
  if (!node) throw new Error(`No member ${first.name} for a common extension`);
  const updated = first.isArray
    ? { ...node, items: withNodeAt(node.items ?? {}, rest, extension) }
    : { ...node, properties: withNodeAt(node.properties ?? {}, rest, extension) };
  return { ...members, [first.name]: updated };
}

export function buildResource(entry: SourceEntry, context: ResourceBuildContext): ResourceModel {
  const { index } = context;
  const source = entry.resource;
  const additions = entry.namespace === 'ed-fi' ? (index.extensions.get(entry.endpoint) ?? []) : [];
  const sources = [source, ...additions.map((addition) => addition.resource)];
  if (!source.shape) throw new Error(`No shape for ${entry.namespace}/${entry.endpoint}`);

  const identityPaths = sortedText(source.identityJsonPaths ?? []);
  const identity = new Set(identityPaths);
  const references = sortByPath(
    sources.flatMap((part) => part.references ?? []).map((reference) => toReference(reference, identity, index)),
  );
  const descriptors = sortByPath(
    sources.flatMap((part) => part.descriptors ?? []).map((use) => toDescriptorUse(use, identity, references)),
  );
  const facts: ShapeFacts = {
    identityPaths,
    descriptorPaths: new Set(descriptors.map((use) => use.path)),
    referencePaths: new Set(references.map((reference) => reference.path)),
    decimals: Object.assign({}, ...sources.map((part) => part.decimals ?? {})),
    integerWidth: (path) => context.integerWidth(entry, path),
    decimalBounds: context.decimalBounds,
    extensionShape: (path) => convertJsonSchemaObject(extensionSchemaAt(additions, path, entry.endpoint), path, facts),
  };
  const superclass = toSuperclass(source.superclass);
  const shape = withMemberNames(
    {
      namespace: entry.namespace,
      resourceName: source.resourceName,
      superclass,
      shape: convertDerivedShape(withExtensionNodes(source.shape, additions), facts),
    },
    context.odsNames,
  );
  const where = `${entry.namespace}/${entry.endpoint}`;
  const key = resourceKey(entry.namespace, source.resourceName);
  const queryFields = odsQueryFields({
    where,
    resourceName: source.resourceName,
    isDescriptor: false,
    parameters: context.odsFacts.queryParameters.get(key),
    rootTableFields: source.queryFields ?? {},
    shape,
  });
  return {
    namespace: entry.namespace,
    endpoint: entry.endpoint,
    resourceName: source.resourceName,
    isDescriptor: false,
    isSchoolYearEnumeration: source.isSchoolYearEnumeration === true,
    ...(superclass ? { superclass } : {}),
    allowIdentityUpdates: source.allowIdentityUpdates === true,
    identityChangesByCascade: source['identityMayChangeViaCascade(ODS)'] === true,
    identityPaths,
    references,
    descriptors,
    collections: collectionsOfShape(shape, collectionKeys(sources)),
    equalityConstraints: sortedEqualityConstraints(sources),
    queryFields,
    securableElements: securableElementsOf(
      where,
      context.odsFacts.authorizationSubjects.get(key) ?? [],
      identityPaths,
      queryFields,
    ),
    resourceClaim: source.resourceClaim ?? '',
    extensions: additions.map((addition) => addition.namespace),
    shape,
  };
}
