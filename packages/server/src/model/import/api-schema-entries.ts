// Converts an extension project's MetaEd ApiSchema into the importer's source-resource form, so an extension's
// resources go through the same build as the Data Standard's: its new resources and descriptors, and its `_ext`
// additions to core resources (at the root and inside collection items, `commonExtensionOverrides`).
import type { JsonPath } from '../types.js';
import { resourceKey, type OdsResourceFacts } from './ods-generated.js';
import { sortedText } from './ordering.js';
import type {
  DerivedDescriptorUse,
  DerivedReference,
  DerivedResource,
  DerivedShapeNode,
  JsonSchema,
} from './source-types.js';

export interface ApiSchemaReferencePath {
  identityJsonPath: string;
  referenceJsonPath: string;
}

export interface ApiSchemaDocumentPath {
  isReference: boolean;
  isDescriptor?: boolean;
  isRequired: boolean;
  projectName?: string;
  resourceName?: string;
  path?: string;
  referenceJsonPaths?: ApiSchemaReferencePath[];
}

export interface ApiSchemaCommonExtension {
  insertionLocations: string[];
  projectEndpointName: string;
  schemaFragment: JsonSchema;
}

export interface ApiSchemaResourceSchema {
  resourceName: string;
  isDescriptor: boolean;
  isResourceExtension: boolean;
  isSchoolYearEnumeration: boolean;
  isSubclass: boolean;
  superclassResourceName?: string;
  superclassProjectName?: string;
  superclassIdentityJsonPath?: string | null;
  allowIdentityUpdates: boolean;
  identityJsonPaths?: string[];
  documentPathsMapping?: Record<string, ApiSchemaDocumentPath>;
  arrayUniquenessConstraints?: DerivedResource['arrayUniquenessConstraints'];
  equalityConstraints?: { sourceJsonPath: string; targetJsonPath: string }[];
  decimalPropertyValidationInfos?: { path: string; totalDigits: number; decimalPlaces: number }[];
  queryFieldMapping?: Record<string, { path: string }[]>;
  commonExtensionOverrides?: ApiSchemaCommonExtension[];
  /** The authorization subjects MetaEd derives (the DMS's), by kind. */
  securableElements?: {
    EducationOrganization?: { jsonPath: string; metaEdName: string }[];
    Student?: string[];
    Staff?: string[];
    Contact?: string[];
  };
  jsonSchemaForInsert: JsonSchema;
}

export interface ApiSchemaProject {
  projectName: string;
  projectEndpointName: string;
  projectVersion: string;
  description?: string;
  isExtensionProject: boolean;
  resourceSchemas: Record<string, ApiSchemaResourceSchema>;
}

export interface ApiSchemaFile {
  projectSchema: ApiSchemaProject;
}

/** `$.a[*].b.c` → `$.a[*].b`: the reference object a reference field belongs to. */
function parentPath(path: JsonPath): JsonPath {
  return path.slice(0, path.lastIndexOf('.'));
}

function referencesOf(schema: ApiSchemaResourceSchema): DerivedReference[] {
  return Object.values(schema.documentPathsMapping ?? {})
    .filter((mapping) => mapping.isReference && !mapping.isDescriptor && mapping.referenceJsonPaths?.length)
    .map((mapping) => ({
      path: parentPath(mapping.referenceJsonPaths![0]!.referenceJsonPath),
      target: mapping.resourceName!,
      targetProject: mapping.projectName!,
      isRequired: mapping.isRequired,
      fields: mapping.referenceJsonPaths!.map((field) => ({
        referenceJsonPath: field.referenceJsonPath,
        identityJsonPaths: [field.identityJsonPath],
      })),
    }));
}

function descriptorsOf(schema: ApiSchemaResourceSchema): DerivedDescriptorUse[] {
  return Object.values(schema.documentPathsMapping ?? {})
    .filter((mapping) => mapping.isDescriptor && mapping.path)
    .map((mapping) => ({
      path: mapping.path!,
      descriptor: mapping.resourceName!,
      descriptorProject: mapping.projectName!,
      isRequired: mapping.isRequired,
    }));
}

/** The JSON schema as the nested shape the derived model uses (required flags on the members themselves). */
function shapeMembers(
  schema: JsonSchema,
  path: JsonPath,
  referencePaths: ReadonlySet<JsonPath>,
): Record<string, DerivedShapeNode> {
  const required = new Set(schema.required ?? []);
  const members: Record<string, DerivedShapeNode> = {};
  for (const [name, node] of Object.entries(schema.properties ?? {})) {
    if (name === '_ext') continue;
    const memberPath = `${path}.${name}`;
    const shape: DerivedShapeNode = { type: (node.type ?? 'object') as DerivedShapeNode['type'] };
    for (const facet of ['format', 'maxLength', 'minLength', 'minimum', 'maximum', 'minItems'] as const) {
      if (node[facet] !== undefined) Object.assign(shape, { [facet]: node[facet] });
    }
    if (required.has(name)) shape.required = true;
    if (referencePaths.has(memberPath)) shape.kind = 'reference';
    if (shape.type === 'object') {
      shape.properties = shapeMembers(node, memberPath, referencePaths);
      // Every field of a reference is required (a school-year reference's schema leaves its one field out of `required`).
      if (shape.kind === 'reference') for (const field of Object.values(shape.properties)) field.required = true;
    }
    if (shape.type === 'array' && node.items)
      shape.items = shapeMembers(node.items, `${memberPath}[*]`, referencePaths);
    // A required collection needs an item, as the ODS validates it (MetaEd writes minItems 0 beside `required`).
    if (shape.type === 'array' && shape.required && !shape.minItems) shape.minItems = 1;
    members[name] = shape;
  }
  return members;
}

/** Root-table query fields: the mapped names whose paths are outside any collection. */
function rootQueryFields(schema: ApiSchemaResourceSchema): Record<string, JsonPath[]> {
  const fields: Record<string, JsonPath[]> = {};
  for (const [name, paths] of Object.entries(schema.queryFieldMapping ?? {})) {
    if (paths.some((entry) => entry.path.includes('[*]'))) continue;
    fields[name] = sortedText(paths.map((entry) => entry.path));
  }
  return fields;
}

function resourceClaimOf(project: ApiSchemaProject, resourceName: string): string {
  const leaf = resourceName.charAt(0).toLowerCase() + resourceName.slice(1);
  return `http://ed-fi.org/identity/claims/${project.projectEndpointName}/${leaf}`;
}

function superclassOf(schema: ApiSchemaResourceSchema): DerivedResource['superclass'] {
  if (!schema.isSubclass || !schema.superclassResourceName) return null;
  const renamed = schema.superclassIdentityJsonPath;
  const own = schema.identityJsonPaths?.[0];
  return renamed && own && renamed !== own
    ? { resourceName: schema.superclassResourceName, identityRename: { [own]: renamed } }
    : { resourceName: schema.superclassResourceName };
}

/** One extension resource schema in the importer's source-resource form. */
export function toSourceResource(project: ApiSchemaProject, schema: ApiSchemaResourceSchema): DerivedResource {
  const references = referencesOf(schema);
  const referencePaths = new Set(references.map((reference) => reference.path));
  const identity = new Set(schema.identityJsonPaths ?? []);
  return {
    resourceName: schema.resourceName,
    isDescriptor: schema.isDescriptor,
    isResourceExtension: schema.isResourceExtension,
    isSchoolYearEnumeration: schema.isSchoolYearEnumeration,
    superclass: superclassOf(schema),
    allowIdentityUpdates: schema.allowIdentityUpdates,
    identityJsonPaths: [...identity].sort(),
    references,
    descriptors: descriptorsOf(schema),
    arrayUniquenessConstraints: schema.arrayUniquenessConstraints ?? [],
    equalityConstraints: schema.equalityConstraints ?? [],
    decimals: Object.fromEntries(
      (schema.decimalPropertyValidationInfos ?? []).map((info) => [
        info.path,
        { precision: info.totalDigits, scale: info.decimalPlaces },
      ]),
    ),
    queryFields: rootQueryFields(schema),
    resourceClaim: resourceClaimOf(project, schema.resourceName),
    ...(schema.isResourceExtension ? {} : { shape: shapeMembers(schema.jsonSchemaForInsert, '$', referencePaths) }),
    jsonSchemaForInsert: schema.jsonSchemaForInsert,
    commonExtensions: (schema.commonExtensionOverrides ?? []).flatMap((override) =>
      override.insertionLocations.map((location) => ({
        path: jsonPathOfSchemaLocation(location),
        schema: override.schemaFragment,
      })),
    ),
  };
}

/** `$.properties.addresses.items` (a location in the JSON schema) → `$.addresses[*]` (a document path). */
export function jsonPathOfSchemaLocation(location: string): JsonPath {
  const parts = location.replace(/^\$\.?/, '').split('.');
  let path = '$';
  for (let i = 0; i < parts.length; i++) {
    const keyword = parts[i];
    if (keyword === 'items') path += '[*]';
    else if (keyword === 'properties' && parts[i + 1] !== undefined) path += `.${parts[++i]}`;
    else if (keyword !== '') throw new Error(`Unsupported schema location ${location}`);
  }
  return path;
}

/** The ODS property a person securable stands for (the ODS authorizes on the person's surrogate key). */
const PERSON_SUBJECTS = { Student: 'StudentUSI', Staff: 'StaffUSI', Contact: 'ContactUSI' } as const;

/**
 * What the ApiSchema says of each resource's authorization subjects and GET-by-example parameters: for an extension
 * folder without the ODS code generator's files (which, when present, say it as the ODS does).
 */
export function apiSchemaResourceFacts(project: ApiSchemaProject, namespace: string): OdsResourceFacts {
  const authorizationSubjects = new Map<string, string[]>();
  const queryParameters = new Map<string, string[]>();
  for (const schema of Object.values(project.resourceSchemas)) {
    if (schema.isResourceExtension) continue;
    const key = resourceKey(namespace, schema.resourceName);
    const securables = schema.securableElements ?? {};
    authorizationSubjects.set(key, [
      ...(securables.EducationOrganization ?? []).map((element) => element.metaEdName),
      ...(Object.keys(PERSON_SUBJECTS) as (keyof typeof PERSON_SUBJECTS)[]).flatMap((kind) =>
        (securables[kind] ?? []).map(() => PERSON_SUBJECTS[kind]),
      ),
    ]);
    queryParameters.set(key, Object.keys(rootQueryFields(schema)));
  }
  return { authorizationSubjects, queryParameters };
}
