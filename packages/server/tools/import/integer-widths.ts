// Resolves the storage width (int32/int64) of integer paths: relational types for ed-fi, ApiSchema formats for
// TPDM, and the target's identity for reference fields.
import type { ProjectNamespace } from '../../src/model/types.js';
import { parseJsonPath } from '../../src/model/json-path.js';
import type { JsonSchema, TpdmApiSchemaFile } from './source-types.js';
import { namespaceOfProject, type SourceIndex } from './source-index.js';

export type IntegerWidth = 'int32' | 'int64';

export type IntegerWidthResolver = (
  namespace: ProjectNamespace,
  endpoint: string,
  path: string,
) => IntegerWidth | undefined;

function schemaAt(schema: JsonSchema, path: string): JsonSchema | undefined {
  let node: JsonSchema | undefined = schema;
  for (const segment of parseJsonPath(path)) {
    node = node?.properties?.[segment.name];
    if (segment.isArray) node = node?.items;
  }
  return node;
}

export function createIntegerWidthResolver(index: SourceIndex, tpdmApiSchema: TpdmApiSchemaFile): IntegerWidthResolver {
  const tpdmSchemas = tpdmApiSchema.projectSchema.resourceSchemas;

  const ownWidth = (namespace: ProjectNamespace, endpoint: string, path: string): IntegerWidth | undefined => {
    if (namespace === 'tpdm' || path.startsWith('$._ext.tpdm.')) {
      const schema = tpdmSchemas[endpoint]?.jsonSchemaForInsert;
      const format = schema ? schemaAt(schema, path)?.format : undefined;
      return format === 'int64' || format === 'int32' ? format : undefined;
    }
    const kind = index.entries.find((entry) => entry.namespace === namespace && entry.endpoint === endpoint)?.resource
      .scalarTypes?.[path]?.kind;
    if (kind === 'Int64') return 'int64';
    if (kind === 'Int32' || kind === 'Int16') return 'int32';
    return undefined;
  };

  const resolve: IntegerWidthResolver = (namespace, endpoint, path) => {
    const own = ownWidth(namespace, endpoint, path);
    if (own) return own;
    const resource =
      index.entries.find((entry) => entry.namespace === namespace && entry.endpoint === endpoint)?.resource ??
      (namespace === 'ed-fi' ? index.extensions.get(endpoint) : undefined);
    const references = [...(resource?.references ?? []), ...(index.extensions.get(endpoint)?.references ?? [])];
    for (const reference of references) {
      const field = reference.fields.find((candidate) => candidate.referenceJsonPath === path);
      const targetPath = field?.identityJsonPaths[0];
      if (!targetPath) continue;
      const targetNamespace = namespaceOfProject(reference.targetProject);
      if (index.abstractNames.has(reference.target)) {
        const subclass = index.abstractSubclasses(reference.target)[0]!;
        const rename = Object.entries(subclass.resource.superclass?.identityRename ?? {}).find(
          ([, to]) => to === targetPath,
        );
        return resolve(subclass.namespace, subclass.endpoint, rename ? rename[0] : targetPath);
      }
      const target = index.byName(targetNamespace, reference.target);
      if (target) return resolve(target.namespace, target.endpoint, targetPath);
    }
    return undefined;
  };
  return resolve;
}
