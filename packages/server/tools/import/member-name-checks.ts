// Cross-checks the ODS member names taken from the DDL: property names against the extensions' ApiModels and the DS 5.1
// MetaEd names, collection names against the collections the ODS 7.2 OpenAPI describes.
import type { PropertyShape, ResourceModel } from '../../src/model/types.js';
import type { OdsNames } from '../../src/model/import/ods-names.js';
import type { JsonSchema } from '../../src/model/import/source-types.js';
import type { Sources } from './sources.js';

/** Property names from the ODS ApiModel and the DS 5.1 ApiSchema (last segment of each dotted MetaEd name). */
function publishedPropertyNames(sources: Sources): Set<string> {
  const names = new Set<string>();
  for (const model of sources.extensions.flatMap((extension) => (extension.apiModel ? [extension.apiModel] : []))) {
    for (const entity of model.entityDefinitions) {
      for (const property of entity.locallyDefinedProperties) names.add(property.propertyName);
    }
    for (const association of model.associationDefinitions) {
      for (const property of [...association.primaryEntityProperties, ...association.secondaryEntityProperties]) {
        names.add(property.propertyName);
      }
    }
  }
  for (const project of Object.values(sources.ds51ApiSchema.projectSchemas)) {
    for (const resource of Object.values(project.resourceSchemas)) {
      for (const key of Object.keys(resource.documentPathsMapping)) names.add(key.slice(key.lastIndexOf('.') + 1));
    }
  }
  return names;
}

function propertyNameProblems(sources: Sources, odsNames: OdsNames): string[] {
  return [...publishedPropertyNames(sources)]
    .map((name) => [name, odsNames.propertyName(name)])
    .filter(([name, ours]) => ours !== undefined && ours !== name)
    .map(([name, ours]) => `ODS column ${ours} is spelled ${name} in the ApiModel / MetaEd model`);
}

const COLLECTION_DESCRIPTION = /^An unordered collection of (\w+)\./;

/**
 * Collections whose DS 5.2 entity is named differently from DS 5.1's: the DS 5.2 DDL's shortened table name hashes
 * `…SpecialEducationProgramServiceServiceProvider`, where ODS 7.2 on DS 5.1 describes `…ServiceProviders`.
 */
const RENAMED_SINCE_DS51 = new Set([
  'studentSpecialEducationProgramAssociations.specialEducationProgramServices.providers',
]);

/** Compares each array's member name with the collection the ODS OpenAPI schema describes at the same place. */
function collectionNameProblems(
  where: string,
  shape: PropertyShape,
  schema: JsonSchema,
  schemas: Record<string, JsonSchema>,
): string[] {
  const resolve = (node: JsonSchema): JsonSchema => (node.$ref ? (schemas[node.$ref.split('/').pop()!] ?? {}) : node);
  const problems: string[] = [];
  for (const [name, node] of Object.entries(shape.properties ?? {})) {
    const published = schema.properties?.[name];
    if (!published) continue;
    const described = COLLECTION_DESCRIPTION.exec(published.description ?? '')?.[1];
    const ours = node.memberName ?? name.charAt(0).toUpperCase() + name.slice(1);
    const expected = described && described.charAt(0).toUpperCase() + described.slice(1);
    if (node.type === 'array' && expected && expected !== ours && !RENAMED_SINCE_DS51.has(`${where}.${name}`)) {
      problems.push(`${where}.${name}: collection ${ours}, ODS 7.2 ${described}`);
    }
    const next = node.type === 'array' ? published.items : published;
    if (next) problems.push(...collectionNameProblems(`${where}.${name}`, node.items ?? node, resolve(next), schemas));
  }
  return problems;
}

export function memberNameProblems(
  resources: readonly ResourceModel[],
  sources: Sources,
  odsNames: OdsNames,
): string[] {
  const schemas = sources.odsSwaggerDs51.components.schemas;
  const collectionProblems = resources
    .filter((resource) => resource.namespace === 'ed-fi' && !resource.isDescriptor)
    .flatMap((resource) => {
      const schema = schemas[`edFi_${resource.resourceName.charAt(0).toLowerCase()}${resource.resourceName.slice(1)}`];
      return schema ? collectionNameProblems(resource.endpoint, resource.shape, schema, schemas) : [];
    });
  return [...propertyNameProblems(sources, odsNames), ...collectionProblems];
}
