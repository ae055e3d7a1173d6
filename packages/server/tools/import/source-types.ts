// Types of the parts of the shared Ed-Fi source files that the importer reads (inputs, not our format); the
// source-resource form shared with extension imports is in src/model/import/source-types.ts.
import type { DerivedResource } from '../../src/model/import/source-types.js';

export interface DerivedModelFile {
  meta: {
    abstractResources: Record<string, { identityJsonPaths: string[]; subclasses: string[] }>;
  };
  model: Record<string, Record<string, DerivedResource>>;
}

/** The DS 5.1 ApiSchema: MetaEd property names (dotted for collection members) per resource. */
export interface Ds51ApiSchemaFile {
  projectSchemas: Record<
    string,
    { resourceSchemas: Record<string, { documentPathsMapping: Record<string, unknown> }> }
  >;
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
