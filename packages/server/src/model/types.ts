// Types of the runtime model format: the JSON files in packages/server/model/ follow these exactly.
// See packages/server/model/README.md for the conventions (paths, ordering, extensions).

/** Project namespace as it appears in URLs (`/data/v3/{namespace}/{endpoint}`). */
export type ProjectNamespace = string;

/**
 * A JSON path from the document root: `$.a.b`, with `[*]` after every array property,
 * e.g. `$.addresses[*].periods[*].beginDate`. Collection item keys use the same syntax relative to the item.
 */
export type JsonPath = string;

/** Version of the model format; bumped whenever these types change incompatibly. */
export const MODEL_FORMAT_VERSION = 1;

export type ScalarFormat = 'date' | 'time' | 'date-time' | 'int32' | 'int64';

/** One node of a resource's JSON shape. Leaves are scalars; objects and arrays nest. */
export interface PropertyShape {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';
  /**
   * The ODS member (class property) name, present only where it is not the JSON name with its first letter
   * capitalised: acronym casing (`iepBeginDate` → `IEPBeginDate`), the collection property for arrays (`addresses` →
   * `EducationOrganizationAddresses`), the child entity for inline objects (`classRanking` →
   * `StudentAcademicRecordClassRanking`).
   */
  memberName?: string;
  /** Strings: date / time / date-time. Integers: int32 / int64 (the storage width). */
  format?: ScalarFormat;
  maxLength?: number;
  minLength?: number;
  /** Inclusive bounds; for decimals they are derived from precision/scale (and a zero lower bound where the XSD has one). */
  minimum?: number;
  maximum?: number;
  decimal?: { precision: number; scale: number };
  /** In its parent's required list (identity members are always required). */
  required?: true;
  /** Part of the resource's natural key (an identity leaf, or an object/reference containing one). */
  isIdentity?: true;
  deprecated?: true;
  /** `reference`: a reference object; `descriptor`: a descriptor URI string (`namespace#codeValue`). */
  kind?: 'reference' | 'descriptor';
  /** Object members (type `object`), in document order. */
  properties?: Record<string, PropertyShape>;
  /** Array items, always objects (type `array`). */
  items?: PropertyShape;
  minItems?: number;
}

export interface ReferenceField {
  /** The reference's own field path, e.g. `$.calendarReference.schoolId`. */
  referencePath: JsonPath;
  /** The target document's identity path(s) this field must equal (several when the target unifies keys). */
  targetIdentityPaths: JsonPath[];
}

export interface ReferenceModel {
  /** Path of the reference object, e.g. `$.schoolReference` or `$.classPeriods[*].classPeriodReference`. */
  path: JsonPath;
  /** Target resource name (PascalCase); an abstract name when `targetIsAbstract`. */
  target: string;
  targetNamespace: ProjectNamespace;
  targetIsAbstract: boolean;
  /** Required in its parent (the document root, or the collection item). */
  required: boolean;
  partOfIdentity: boolean;
  fields: ReferenceField[];
}

export interface DescriptorUse {
  /** Path of the descriptor URI string. */
  path: JsonPath;
  /** Descriptor resource name, e.g. `GradeLevelDescriptor` (role names are resolved to the base descriptor). */
  descriptor: string;
  descriptorNamespace: ProjectNamespace;
  required: boolean;
  partOfIdentity: boolean;
  /** The path is a field of a reference object (so it is also checked via the reference). */
  insideReference: boolean;
}

export interface CollectionModel {
  /** Path of the array items, e.g. `$.addresses[*]` or `$.addresses[*].periods[*]`. */
  path: JsonPath;
  /**
   * Child table name from the relational model (e.g. `SchoolAddress`); absent for TPDM-native collections. The ODS
   * collection name is the array shape's `memberName`.
   */
  entityName?: string;
  /** Item fields, relative to the item (`$.city`), whose values must be unique within the array. */
  itemIdentity: JsonPath[];
  minItems: number;
}

/** The values at both paths must be equal wherever both are present. */
export interface EqualityConstraint {
  sourcePath: JsonPath;
  targetPath: JsonPath;
}

export interface SuperclassModel {
  /** Abstract resource name, e.g. `EducationOrganization`. */
  resourceName: string;
  /** This resource's identity path as seen through the superclass, e.g. `$.schoolId` → `$.educationOrganizationId`. */
  identityRename?: { from: JsonPath; to: JsonPath };
}

export interface EducationOrganizationSecurable {
  /** Authorization endpoint name as the ODS reports it, e.g. `SchoolId`, `EducationOrganizationId`. */
  name: string;
  path: JsonPath;
}

/** JSON paths that relationship- and namespace-based authorization inspect. */
export interface SecurableElements {
  educationOrganizations: EducationOrganizationSecurable[];
  students: JsonPath[];
  staffs: JsonPath[];
  contacts: JsonPath[];
  namespaces: JsonPath[];
}

export interface ResourceModel {
  namespace: ProjectNamespace;
  /** Plural camelCase URL segment, e.g. `studentSchoolAssociations`. */
  endpoint: string;
  /** PascalCase singular name, e.g. `StudentSchoolAssociation`. */
  resourceName: string;
  isDescriptor: boolean;
  isSchoolYearEnumeration: boolean;
  superclass?: SuperclassModel;
  /** Identity may be changed by PUT (cascading to referrers). */
  allowIdentityUpdates: boolean;
  /** The ODS cascades key changes of a referenced resource into this one (a superset of allowIdentityUpdates). */
  identityChangesByCascade: boolean;
  /** Natural-key paths, sorted. */
  identityPaths: JsonPath[];
  references: ReferenceModel[];
  descriptors: DescriptorUse[];
  collections: CollectionModel[];
  equalityConstraints: EqualityConstraint[];
  /** GET query parameter name → the document path(s) it matches (several where keys are unified). `id` maps to `$.id`. */
  queryFields: Record<string, JsonPath[]>;
  securableElements: SecurableElements;
  /** Leaf resource claim URI from the security metadata. */
  resourceClaim: string;
  /** Extension projects that add `_ext.{project}` data to this resource (their paths are merged into the lists above). */
  extensions: ProjectNamespace[];
  /** The document's root object shape (without `id`, `_etag`, `_lastModifiedDate`, `link`). */
  shape: PropertyShape;
}

export interface AbstractResourceModel {
  namespace: ProjectNamespace;
  resourceName: string;
  identityPaths: JsonPath[];
  /** Concrete subclasses, by namespace and endpoint, sorted. */
  subclasses: { namespace: ProjectNamespace; endpoint: string }[];
}

/** An extension project of the model (TPDM, Sample, …), as the discovery document's `dataModels` names it. */
export interface ExtensionProject {
  namespace: ProjectNamespace;
  /** The project's logical name, e.g. `TPDM`. */
  name: string;
  version: string;
  /** The project's description in its ApiSchema (`TPDM-Core`; empty for Sample and Homograph). */
  informationalVersion: string;
}

/** `model/resources.json`. Resources sorted by namespace then endpoint; descriptors included (`isDescriptor`). */
export interface ResourcesFile {
  formatVersion: number;
  /** Extension projects, sorted by namespace (absent from files of models without extensions). */
  extensionProjects?: ExtensionProject[];
  resources: ResourceModel[];
  abstractResources: AbstractResourceModel[];
}

export interface DescriptorValue {
  namespace: string;
  codeValue: string;
  shortDescription: string;
  effectiveBeginDate?: string;
  effectiveEndDate?: string;
}

/** `model/descriptors.json`: default descriptor values per descriptor resource name (ed-fi only; TPDM ships none). */
export interface DescriptorsFile {
  formatVersion: number;
  values: Record<string, DescriptorValue[]>;
}

export interface SchoolYear {
  schoolYear: number;
  schoolYearDescription: string;
  currentSchoolYear: boolean;
}

/** `model/school-years.json`: the seeded SchoolYearType rows. */
export interface SchoolYearsFile {
  formatVersion: number;
  schoolYears: SchoolYear[];
}

export type ClaimAction = 'Create' | 'Read' | 'Update' | 'Delete' | 'ReadChanges';

/** Action → authorization strategy names. */
export type ActionStrategies = Partial<Record<ClaimAction, string[]>>;

/** Action → strategy overrides (an empty list means "granted, no override"). */
export type ClaimSetGrant = Partial<Record<ClaimAction, string[]>>;

export interface ClaimNode {
  /** Claim URI. */
  name: string;
  defaultAuthorization?: ActionStrategies;
  /** Claim set name → actions granted at this node. */
  claimSets?: Record<string, ClaimSetGrant>;
  children?: ClaimNode[];
}

export interface ClaimSetInfo {
  name: string;
  isSystemReserved: boolean;
}

/** `model/claims.json`: claim sets and the resource-claim hierarchy. */
export interface ClaimsFile {
  formatVersion: number;
  actions: ClaimAction[];
  authorizationStrategies: string[];
  claimSets: ClaimSetInfo[];
  hierarchy: ClaimNode[];
}

/** Decimal XSD simple types with their range facets, and the XSD elements of those types. */
export interface DecimalTypes {
  types: Record<string, { minInclusive?: number; maxInclusive?: number }>;
  /** Element name (PascalCase) → its decimal type's name. */
  elements: Record<string, string>;
}

/** The ODS tables by qualified name (`edfi.StudentAddress`): their columns, and the tables each owns. */
export interface OdsTables {
  columns: Record<string, string[]>;
  children: Record<string, string[]>;
}

/**
 * `model/extension-import.json`: what an extension's import reads of the Data Standard besides the model, so that
 * `extensions add` needs no Ed-Fi inputs: the XSD's decimal types (`Currency`), which extension XSDs use without
 * defining them, and the ODS tables, which extension tables hang from and whose columns spell the ODS member names.
 */
export interface ExtensionImportFile {
  formatVersion: number;
  decimalTypes: DecimalTypes;
  odsTables: OdsTables;
}

/** An extension's own additions to a resource of the model it extends (`_ext.{namespace}` and what lies inside it). */
export interface ResourceAddition {
  namespace: ProjectNamespace;
  endpoint: string;
  /** Path of each object the extension extends (`$`, `$.addresses[*]`) → the shape of its `_ext.{namespace}` there. */
  shapes: Record<JsonPath, PropertyShape>;
  references: ReferenceModel[];
  descriptors: DescriptorUse[];
  collections: CollectionModel[];
  equalityConstraints: EqualityConstraint[];
}

/**
 * One extension's part of the model, built from its folder against the model it extends (tools/import-model.ts for the
 * shipped ones, `edfi-api extensions add` for others, which stores it): merged into that model, it gives the model
 * serving the extension.
 */
export interface ExtensionModel {
  formatVersion: number;
  project: ExtensionProject;
  /** Its own resources and descriptors, sorted by endpoint. */
  resources: ResourceModel[];
  /** Its additions to the model's resources, sorted by namespace then endpoint. */
  additions: ResourceAddition[];
  /** The claims it adds to the hierarchy (its domain), sorted by name. */
  claims: ClaimNode[];
}
