// Builds the ResourceModel of a non-descriptor resource from its source (extensions' `_ext` additions to it are built
// apart: extension-additions.ts).
import type {
  DescriptorUse,
  EqualityConstraint,
  JsonPath,
  ReferenceField,
  ReferenceModel,
  ResourceModel,
  SuperclassModel,
} from '../types.js';
import { isPathWithin } from '../json-path.js';
import { collectionKeys, collectionsOfShape } from './collections.js';
import { withMemberNames } from './member-names.js';
import type { OdsNames } from './ods-names.js';
import { compareText, sortByPath, sortedText } from './ordering.js';
import { resourceKey, type OdsResourceFacts } from './ods-generated.js';
import { odsQueryFields } from './query-fields.js';
import { securableElementsOf } from './securables.js';
import { convertDerivedShape, type ShapeFacts } from './shape.js';
import type { SourceEntry, SourceIndex } from './source-index.js';
import type { DerivedDescriptorUse, DerivedReference, DerivedResource } from './source-types.js';

export interface ResourceBuildContext {
  index: SourceIndex;
  integerWidth: (entry: SourceEntry, path: JsonPath) => 'int32' | 'int64' | undefined;
  decimalBounds: ShapeFacts['decimalBounds'];
  odsNames: OdsNames;
  odsFacts: OdsResourceFacts;
}

export function toReference(reference: DerivedReference, identity: Set<JsonPath>, index: SourceIndex): ReferenceModel {
  return {
    path: reference.path,
    target: reference.target,
    targetNamespace: index.namespaceOf(reference.targetProject),
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

export function toDescriptorUse(
  use: DerivedDescriptorUse,
  identity: Set<JsonPath>,
  references: readonly ReferenceModel[],
  index: SourceIndex,
): DescriptorUse {
  return {
    path: use.path,
    descriptor: use.descriptor,
    descriptorNamespace: index.namespaceOf(use.descriptorProject),
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

export function sortedEqualityConstraints(sources: readonly DerivedResource[]): EqualityConstraint[] {
  return sources
    .flatMap((source) => source.equalityConstraints ?? [])
    .map((constraint) => ({ sourcePath: constraint.sourceJsonPath, targetPath: constraint.targetJsonPath }))
    .sort((a, b) => compareText(a.sourcePath, b.sourcePath) || compareText(a.targetPath, b.targetPath));
}

export function buildResource(entry: SourceEntry, context: ResourceBuildContext): ResourceModel {
  const { index } = context;
  const source = entry.resource;
  if (!source.shape) throw new Error(`No shape for ${entry.namespace}/${entry.endpoint}`);

  const identityPaths = sortedText(source.identityJsonPaths ?? []);
  const identity = new Set(identityPaths);
  const references = sortByPath((source.references ?? []).map((reference) => toReference(reference, identity, index)));
  const descriptors = sortByPath(
    (source.descriptors ?? []).map((use) => toDescriptorUse(use, identity, references, index)),
  );
  const facts: ShapeFacts = {
    identityPaths,
    descriptorPaths: new Set(descriptors.map((use) => use.path)),
    referencePaths: new Set(references.map((reference) => reference.path)),
    decimals: source.decimals ?? {},
    integerWidth: (path) => context.integerWidth(entry, path),
    decimalBounds: context.decimalBounds,
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
    collections: collectionsOfShape(shape, collectionKeys([source])),
    equalityConstraints: sortedEqualityConstraints([source]),
    queryFields,
    securableElements: securableElementsOf(
      where,
      context.odsFacts.authorizationSubjects.get(key) ?? [],
      identityPaths,
      queryFields,
    ),
    resourceClaim: source.resourceClaim ?? '',
    extensions: [],
    shape,
  };
}
