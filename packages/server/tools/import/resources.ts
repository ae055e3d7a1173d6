// Builds the ResourceModel of each non-descriptor resource from the derived model, merging TPDM `_ext` additions.
import type {
  DescriptorUse,
  EqualityConstraint,
  JsonPath,
  ReferenceField,
  ReferenceModel,
  ResourceModel,
  SuperclassModel,
} from '../../src/model/types.js';
import { isPathWithin } from '../../src/model/json-path.js';
import { collectionKeys, collectionsOfShape } from './collections.js';
import { withMemberNames } from './member-names.js';
import type { OdsNames } from './ods-names.js';
import { compareText, sortByPath, sortedText } from './ordering.js';
import { resourceKey, type OdsResourceFacts } from './ods-generated.js';
import { odsQueryFields } from './query-fields.js';
import { securableElementsOf } from './securables.js';
import { convertDerivedShape, convertJsonSchemaObject, type ShapeFacts } from './shape.js';
import { namespaceOfProject, type SourceEntry, type SourceIndex } from './source-index.js';
import type { DerivedDescriptorUse, DerivedReference, DerivedResource } from './source-types.js';

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

export function buildResource(entry: SourceEntry, context: ResourceBuildContext): ResourceModel {
  const { index } = context;
  const source = entry.resource;
  const extension = entry.namespace === 'ed-fi' ? index.extensions.get(entry.endpoint) : undefined;
  const sources = extension ? [source, extension] : [source];
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
    extensionShape: (path) => {
      const schema = extension?.['extensionShape(jsonSchemaForInsert)']?.properties?._ext;
      if (!schema) throw new Error(`No extension schema for ${path} of ${entry.endpoint}`);
      return convertJsonSchemaObject(schema, path, facts);
    },
  };
  const superclass = toSuperclass(source.superclass);
  const shape = withMemberNames(
    {
      namespace: entry.namespace,
      resourceName: source.resourceName,
      superclass,
      shape: convertDerivedShape(source.shape, facts),
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
    extensions: extension ? ['tpdm'] : [],
    shape,
  };
}
