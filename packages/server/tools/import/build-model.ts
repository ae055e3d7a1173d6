// Builds every model file's content from the shared sources.
import type { AbstractResourceModel, ResourcesFile } from '../../src/model/types.js';
import { MODEL_FORMAT_VERSION } from '../../src/model/types.js';
import { buildClaims } from './claims.js';
import { crossCheckModel } from './cross-checks.js';
import { decimalBounds, readDecimalFacetsByElement } from './decimal-bounds.js';
import { buildDescriptorResource } from './descriptor-resources.js';
import { buildDescriptorValues } from './descriptor-values.js';
import { createIntegerWidthResolver } from './integer-widths.js';
import { buildOdsClaims } from './ods-claims.js';
import { parseOdsDdl } from './ods-ddl.js';
import { readAuthorizationSubjects, readQueryParameters, type OdsResourceFacts } from './ods-generated.js';
import { createOdsNames } from './ods-names.js';
import type { OdsSecurityTables } from './ods-security.js';
import { compareText } from './ordering.js';
import { buildResource } from './resources.js';
import { buildSchoolYears } from './school-years.js';
import { indexSources, registerProject, type SourceIndex } from './source-index.js';
import type { ExtensionFolder } from './extension-folder.js';
import { withExtensionClaims } from './extension-claims.js';
import type { Sources } from './sources.js';

/** Generated file name → parsed content. */
export type ModelFiles = Record<string, unknown>;

function abstractResources(sources: Sources, index: SourceIndex): AbstractResourceModel[] {
  return Object.entries(sources.derived.meta.abstractResources)
    .map(([resourceName, abstract]) => ({
      namespace: 'ed-fi' as const,
      resourceName,
      identityPaths: [...abstract.identityJsonPaths].sort(compareText),
      subclasses: index
        .abstractSubclasses(resourceName)
        .map((entry) => ({ namespace: entry.namespace, endpoint: entry.endpoint }))
        .sort((a, b) => compareText(a.endpoint, b.endpoint)),
    }))
    .sort((a, b) => compareText(a.resourceName, b.resourceName));
}

export function buildModelFiles(sources: Sources, odsSecurity: OdsSecurityTables): ModelFiles {
  const { extensions } = sources;
  for (const extension of extensions) registerProject(extension.projectName, extension.namespace);
  const index = indexSources(sources.derived, extensions);
  const widthOf = createIntegerWidthResolver(index);
  const facetsByElement = readDecimalFacetsByElement([
    ...sources.xsdTexts,
    ...extensions.flatMap((extension) => extension.xsdTexts),
  ]);
  const odsNames = createOdsNames(
    parseOdsDdl(
      [...sources.odsTablesSql, ...extensions.flatMap((extension) => extension.tablesSql)],
      [...sources.odsForeignKeysSql, ...extensions.flatMap((extension) => extension.foreignKeysSql)],
    ),
  );
  const generated = (pick: (extension: ExtensionFolder) => string | undefined) =>
    Object.fromEntries(
      extensions.flatMap((extension) => {
        const text = pick(extension);
        return text === undefined ? [] : [[extension.namespace, text]];
      }),
    ) as Record<string, string>;
  const odsFacts: OdsResourceFacts = {
    authorizationSubjects: readAuthorizationSubjects({
      generated: {
        ...sources.odsAuthorizationProviders,
        ...generated((extension) => extension.odsAuthorizationProviders),
      },
      overrides: sources.odsAuthorizationOverrides,
    }),
    queryParameters: readQueryParameters({
      ...sources.odsRequests,
      ...generated((extension) => extension.odsRequests),
    }),
  };
  const resources = index.entries.map((entry) =>
    entry.resource.isDescriptor
      ? buildDescriptorResource(entry, sources.descriptorsOpenApi, odsNames, odsFacts)
      : buildResource(entry, {
          index,
          integerWidth: (owner, path) => widthOf(owner.namespace, owner.endpoint, path),
          decimalBounds: (leaf, precision, scale) => decimalBounds(leaf, precision, scale, facetsByElement),
          odsNames,
          odsFacts,
        }),
  );
  const resourcesFile: ResourcesFile = {
    formatVersion: MODEL_FORMAT_VERSION,
    extensionProjects: extensions
      .map((extension) => ({
        namespace: extension.namespace,
        name: extension.projectName,
        version: extension.projectVersion,
        informationalVersion: extension.description,
      }))
      .sort((a, b) => compareText(a.namespace, b.namespace)),
    resources,
    abstractResources: abstractResources(sources, index),
  };
  const claims = withExtensionClaims(buildOdsClaims(odsSecurity, buildClaims(sources.claims)), extensions, resources);
  crossCheckModel(resourcesFile, claims, sources, odsNames);
  return {
    'resources.json': resourcesFile,
    'descriptors.json': buildDescriptorValues(sources.descriptorValues),
    'school-years.json': buildSchoolYears(sources.schoolYearsSql),
    'claims.json': claims,
  };
}
