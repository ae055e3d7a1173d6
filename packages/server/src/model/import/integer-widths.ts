// Resolves the storage width (int32/int64) of integer paths: relational types for ed-fi, ApiSchema formats for
// extension projects (TPDM's and those read from an extension folder), and the target's identity for reference fields
// (in the index, or else in the model an extension extends).
import type { ProjectNamespace } from '../types.js';
import { nodeAtPath } from '../json-path.js';
import type { JsonSchema } from './source-types.js';
import type { SourceIndex } from './source-index.js';

export type IntegerWidth = 'int32' | 'int64';

export type IntegerWidthResolver = (
  namespace: ProjectNamespace,
  endpoint: string,
  path: string,
) => IntegerWidth | undefined;

/** The width at a path of a resource (an abstract one included) the index does not hold. */
export type OutsideWidth = (
  namespace: ProjectNamespace,
  resourceName: string,
  path: string,
) => IntegerWidth | undefined;

const EXTENSION_MEMBER = /\._ext\.([^.]+)\./;

/** The insert schema of an extension's part of `endpoint` that holds `path`, and the path within that schema. */
function extensionSchema(
  index: SourceIndex,
  project: ProjectNamespace,
  endpoint: string,
  path: string,
): { schema: JsonSchema; path: string } | undefined {
  const own = index.entries.find((entry) => entry.namespace === project && entry.endpoint === endpoint)?.resource;
  const addition = index.extensions.get(endpoint)?.find((entry) => entry.namespace === project)?.resource;
  const root = (own ?? addition)?.jsonSchemaForInsert;
  const extAt = path.indexOf('._ext.');
  const common = addition?.commonExtensions?.find((fragment) => path.startsWith(`${fragment.path}._ext.`));
  if (common && extAt > 1) return { schema: { properties: { _ext: common.schema } }, path: '$' + path.slice(extAt) };
  return root ? { schema: root, path } : undefined;
}

export function createIntegerWidthResolver(index: SourceIndex, outside?: OutsideWidth): IntegerWidthResolver {
  const isReferenceField = (namespace: ProjectNamespace, endpoint: string, path: string): boolean =>
    [
      ...(index.entries.find((entry) => entry.namespace === namespace && entry.endpoint === endpoint)?.resource
        .references ?? []),
      ...(index.extensions.get(endpoint) ?? []).flatMap((addition) => addition.resource.references ?? []),
    ].some((reference) => reference.fields.some((field) => field.referenceJsonPath === path));

  const ownWidth = (namespace: ProjectNamespace, endpoint: string, path: string): IntegerWidth | undefined => {
    const project = namespace !== 'ed-fi' ? namespace : EXTENSION_MEMBER.exec(path)?.[1];
    if (project) {
      const found = extensionSchema(index, project, endpoint, path);
      const format = found?.schema ? nodeAtPath(found.schema, found.path)?.format : undefined;
      if (format === 'int64' || format === 'int32') return format;
      // MetaEd writes no format for INT/SMALLINT members; reference fields take their target's width below.
      return isReferenceField(namespace, endpoint, path) ? undefined : 'int32';
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
    const resource = index.entries.find(
      (entry) => entry.namespace === namespace && entry.endpoint === endpoint,
    )?.resource;
    const additions = namespace === 'ed-fi' ? (index.extensions.get(endpoint) ?? []) : [];
    const references = [
      ...(resource?.references ?? []),
      ...additions.flatMap((addition) => addition.resource.references ?? []),
    ];
    for (const reference of references) {
      const field = reference.fields.find((candidate) => candidate.referenceJsonPath === path);
      const targetPath = field?.identityJsonPaths[0];
      if (!targetPath) continue;
      const targetNamespace = index.namespaceOf(reference.targetProject);
      const subclass = index.abstractNames.has(reference.target)
        ? index.abstractSubclasses(reference.target)[0]
        : undefined;
      if (subclass) {
        const rename = Object.entries(subclass.resource.superclass?.identityRename ?? {}).find(
          ([, to]) => to === targetPath,
        );
        return resolve(subclass.namespace, subclass.endpoint, rename ? rename[0] : targetPath);
      }
      const target = index.abstractNames.has(reference.target)
        ? undefined
        : index.byName(targetNamespace, reference.target);
      if (target) return resolve(target.namespace, target.endpoint, targetPath);
      const width = outside?.(targetNamespace, reference.target, targetPath);
      if (width) return width;
    }
    return undefined;
  };
  return resolve;
}
