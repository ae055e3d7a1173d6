// Builds descriptor resources: all share one shape (namespace + codeValue identity), read from the descriptor OpenAPI.
import type { JsonPath, PropertyShape, ResourceModel } from '../types.js';
import { withMemberNames } from './member-names.js';
import type { OdsNames } from './ods-names.js';
import { convertJsonSchemaObject } from './shape.js';
import type { SourceEntry } from './source-index.js';
import type { JsonSchema, OpenApiFile } from './source-types.js';
import { securableElementsOf } from './securables.js';
import { resourceKey, type OdsResourceFacts } from './ods-generated.js';
import { odsQueryFields } from './query-fields.js';

const IDENTITY_PATHS: JsonPath[] = ['$.codeValue', '$.namespace'];
const SERVER_MANAGED = new Set(['id']);

/** A Data Standard descriptor's schema in the descriptor OpenAPI (an extension's comes from its ApiSchema). */
function schemaName(entry: SourceEntry): string {
  return `EdFi_${entry.resource.resourceName}`;
}

/** The ODS descriptor members have no minimum length; the DMS OpenAPI's 1 only restates "required, not blank". */
function withoutServerManagedAndMinLength(schema: JsonSchema): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {})
      .filter(([name]) => !SERVER_MANAGED.has(name))
      .map(([name, property]) => {
        const { minLength: _minLength, ...rest } = property;
        return [name, rest];
      }),
  );
  return { ...schema, properties };
}

export function buildDescriptorResource(
  entry: SourceEntry,
  /** Where a Data Standard descriptor's schema is; an extension's is in its ApiSchema. */
  openApi: OpenApiFile | undefined,
  odsNames: OdsNames,
  odsFacts: OdsResourceFacts,
): ResourceModel {
  const schema = entry.resource.jsonSchemaForInsert ?? openApi?.components.schemas[schemaName(entry)];
  if (!schema) throw new Error(`No descriptor schema ${schemaName(entry)}`);
  const converted: PropertyShape = convertJsonSchemaObject(withoutServerManagedAndMinLength(schema), '$', {
    identityPaths: IDENTITY_PATHS,
    descriptorPaths: new Set(),
    referencePaths: new Set(),
    decimals: {},
    integerWidth: () => undefined,
    decimalBounds: () => {
      throw new Error('Descriptors have no decimals');
    },
  });
  const shape = withMemberNames(
    { namespace: entry.namespace, resourceName: entry.resource.resourceName, shape: converted },
    odsNames,
  );
  const where = `${entry.namespace}/${entry.endpoint}`;
  const key = resourceKey(entry.namespace, entry.resource.resourceName);
  const queryFields = odsQueryFields({
    where,
    resourceName: entry.resource.resourceName,
    isDescriptor: true,
    parameters: odsFacts.queryParameters.get(key),
    rootTableFields: { id: ['$.id'] },
    shape,
  });
  return {
    namespace: entry.namespace,
    endpoint: entry.endpoint,
    resourceName: entry.resource.resourceName,
    isDescriptor: true,
    isSchoolYearEnumeration: false,
    allowIdentityUpdates: false,
    identityChangesByCascade: false,
    identityPaths: IDENTITY_PATHS,
    references: [],
    descriptors: [],
    collections: [],
    equalityConstraints: [],
    queryFields,
    securableElements: securableElementsOf(
      where,
      odsFacts.authorizationSubjects.get(key) ?? [],
      IDENTITY_PATHS,
      queryFields,
    ),
    resourceClaim: entry.resource.resourceClaim ?? '',
    extensions: [],
    shape,
  };
}
