// The source-resource form the model build works on: each resource of the Data Standard's derived model, or of an
// extension's MetaEd ApiSchema converted to it (api-schema-entries.ts), and the JSON schema subset both carry.

export type SourceProject = string;

/** The facets a source node may carry, in the derived model's shapes and in JSON schemas alike. */
export interface SourceFacets {
  format?: string;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
}

export interface DerivedShapeNode extends SourceFacets {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'extension';
  required?: boolean;
  isIdentity?: boolean;
  deprecated?: string | boolean;
  kind?: 'reference';
  properties?: Record<string, DerivedShapeNode>;
  /** Array items as a property map (items are always objects). */
  items?: Record<string, DerivedShapeNode>;
}

export interface DerivedReference {
  path: string;
  target: string;
  targetProject: SourceProject;
  isRequired: boolean;
  fields: { referenceJsonPath: string; identityJsonPaths: string[] }[];
}

export interface DerivedDescriptorUse {
  path: string;
  descriptor: string;
  descriptorProject: SourceProject;
  isRequired: boolean;
}

export interface DerivedCollection {
  path: string;
  table: string;
  'itemIdentity(relative)': string[];
}

export interface DerivedUniquenessConstraint {
  paths?: string[];
  nestedConstraints?: { basePath: string; paths: string[] }[];
}

export interface DerivedResource {
  resourceName: string;
  isDescriptor: boolean;
  isSchoolYearEnumeration?: boolean;
  isResourceExtension?: boolean;
  superclass?: { resourceName: string; identityRename?: Record<string, string> } | null;
  allowIdentityUpdates?: boolean;
  'identityMayChangeViaCascade(ODS)'?: boolean;
  identityJsonPaths?: string[];
  references?: DerivedReference[];
  descriptors?: DerivedDescriptorUse[];
  collections?: DerivedCollection[];
  arrayUniquenessConstraints?: DerivedUniquenessConstraint[];
  equalityConstraints?: { sourceJsonPath: string; targetJsonPath: string }[];
  decimals?: Record<string, { precision: number; scale: number }>;
  scalarTypes?: Record<string, { kind: string }>;
  queryFields?: Record<string, string[]>;
  resourceClaim?: string;
  shape?: Record<string, DerivedShapeNode>;
  /** Extension projects read from their ApiSchema: the insert schema, and `_ext` fragments inside collection items. */
  jsonSchemaForInsert?: JsonSchema;
  commonExtensions?: { path: string; schema: JsonSchema }[];
}

/** The subset of JSON Schema / OpenAPI schema objects the importer reads. */
export interface JsonSchema extends SourceFacets {
  type?: string;
  required?: string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  $ref?: string;
  description?: string;
  'x-Ed-Fi-isIdentity'?: boolean;
}

/** An OpenAPI document's schemas (the Data Standard's descriptor OpenAPI). */
export interface OpenApiFile {
  paths: Record<string, unknown>;
  components: { schemas: Record<string, JsonSchema> };
}

/** The ODS ApiModel: entity and association property names. */
export interface OdsApiModelFile {
  entityDefinitions: { name: string; locallyDefinedProperties: { propertyName: string }[] }[];
  associationDefinitions: {
    primaryEntityProperties: { propertyName: string }[];
    secondaryEntityProperties: { propertyName: string }[];
  }[];
}
