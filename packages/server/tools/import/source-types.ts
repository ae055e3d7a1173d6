// Types of the parts of the shared Ed-Fi source files that the importer reads (inputs, not our format).

export type SourceProject = string;

export interface DerivedShapeNode {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'extension';
  format?: string;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
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

export interface DerivedModelFile {
  meta: {
    abstractResources: Record<string, { identityJsonPaths: string[]; subclasses: string[] }>;
  };
  model: Record<string, Record<string, DerivedResource>>;
}

/** The subset of JSON Schema / OpenAPI schema objects the importer reads. */
export interface JsonSchema {
  type?: string;
  format?: string;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  required?: string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  $ref?: string;
  description?: string;
  'x-Ed-Fi-isIdentity'?: boolean;
}

/** The ODS ApiModel: entity and association property names. */
export interface OdsApiModelFile {
  entityDefinitions: { name: string; locallyDefinedProperties: { propertyName: string }[] }[];
  associationDefinitions: {
    primaryEntityProperties: { propertyName: string }[];
    secondaryEntityProperties: { propertyName: string }[];
  }[];
}

/** The DS 5.1 ApiSchema: MetaEd property names (dotted for collection members) per resource. */
export interface Ds51ApiSchemaFile {
  projectSchemas: Record<
    string,
    { resourceSchemas: Record<string, { documentPathsMapping: Record<string, unknown> }> }
  >;
}

export interface OpenApiFile {
  paths: Record<string, unknown>;
  components: { schemas: Record<string, JsonSchema> };
}

export interface ClaimsSourceAction {
  name: string;
  authorizationStrategies?: { name: string }[];
  authorizationStrategyOverrides?: { name: string }[];
}

export interface ClaimsSourceNode {
  name: string;
  defaultAuthorization?: { actions: ClaimsSourceAction[] };
  claimSets?: { name: string; actions: ClaimsSourceAction[] }[];
  claims?: ClaimsSourceNode[];
}

export interface ClaimsSourceFile {
  claimSets: { claimSetName: string; isSystemReserved: boolean }[];
  claimsHierarchy: ClaimsSourceNode[];
}

export interface DescriptorValuesSourceFile {
  descriptors: Record<
    string,
    {
      namespace: string;
      codeValue: string;
      shortDescription: string;
      effectiveBeginDate?: string;
      effectiveEndDate?: string;
    }[]
  >;
}
