// Test oracle: reads the shared derived resource model directly, independent of the importer code.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EDFI_SOURCE_DIR } from '../support/edfi-source.js';

export interface OracleReference {
  path: string;
  target: string;
  isRequired: boolean;
  fields: { referenceJsonPath: string; identityJsonPaths: string[] }[];
}

export interface OracleResource {
  resourceName: string;
  isDescriptor: boolean;
  isResourceExtension?: boolean;
  allowIdentityUpdates?: boolean;
  identityJsonPaths?: string[];
  references?: OracleReference[];
  descriptors?: { path: string; descriptor: string }[];
  queryFields?: Record<string, string[]>;
}

type OracleModel = Record<'ed-fi' | 'tpdm', Record<string, OracleResource>>;

let cached: OracleModel | undefined;

export function oracleModel(): OracleModel {
  cached ??= (
    JSON.parse(
      readFileSync(path.join(EDFI_SOURCE_DIR, 'derived', 'ds-5.2-tpdm-1.1-resource-model.derived.json'), 'utf8'),
    ) as {
      model: OracleModel;
    }
  ).model;
  return cached;
}

export function oracleResource(namespace: string, endpoint: string): OracleResource {
  const resource = oracleModel()[namespace as 'ed-fi' | 'tpdm']?.[endpoint];
  if (!resource) throw new Error(`No derived entry ${namespace}/${endpoint}`);
  return resource;
}

/** `path → target` and `field → target identity paths` as sorted strings, for set comparison. */
export function referenceFacts(references: OracleReference[]): string[] {
  return references
    .flatMap((reference) => [
      `${reference.path} -> ${reference.target} required=${reference.isRequired}`,
      ...reference.fields.map(
        (field) => `${field.referenceJsonPath} = ${[...field.identityJsonPaths].sort().join('|')}`,
      ),
    ])
    .filter((fact, index, all) => all.indexOf(fact) === index)
    .sort();
}
