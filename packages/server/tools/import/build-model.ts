// Builds every model file's content from the shared sources: the Data Standard's resources from the derived model,
// then each extension (TPDM first, then the extension folders) built against the model so far and merged into it, as
// `edfi-api extensions add` does for an extension of a user's.
import { withExtensionModel } from '../../src/model/extension-models.js';
import type { AbstractResourceModel, ClaimsFile, ExtensionImportFile, ResourcesFile } from '../../src/model/types.js';
import { MODEL_FORMAT_VERSION } from '../../src/model/types.js';
import { decimalBounds, readDecimalFacetsByElement, readDecimalTypes } from '../../src/model/import/decimal-bounds.js';
import { buildDescriptorResource } from '../../src/model/import/descriptor-resources.js';
import { buildExtensionModel, type ExtendedModel } from '../../src/model/import/extension-model.js';
import { createIntegerWidthResolver } from '../../src/model/import/integer-widths.js';
import { mergedOdsDdl, odsTablesOf, parseOdsDdl } from '../../src/model/import/ods-ddl.js';
import {
  readAuthorizationSubjects,
  readQueryParameters,
  type OdsResourceFacts,
} from '../../src/model/import/ods-generated.js';
import { createOdsNames } from '../../src/model/import/ods-names.js';
import { compareText } from '../../src/model/import/ordering.js';
import { buildResource } from '../../src/model/import/resources.js';
import type { SourceIndex } from '../../src/model/import/source-index.js';
import { buildClaims } from './claims.js';
import { indexCore } from './core-index.js';
import { crossCheckModel } from './cross-checks.js';
import { buildDescriptorValues } from './descriptor-values.js';
import { buildOdsClaims } from './ods-claims.js';
import type { OdsSecurityTables } from './ods-security.js';
import { buildSchoolYears } from './school-years.js';
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

function coreDdl(sources: Sources) {
  return parseOdsDdl(sources.odsTablesSql, sources.odsForeignKeysSql);
}

/** The Data Standard's resources, with the ODS's view of them (generated code and hand-written overrides). */
function buildCoreResources(sources: Sources): ResourcesFile {
  const index = indexCore(sources.derived);
  const widthOf = createIntegerWidthResolver(index);
  const facetsByElement = readDecimalFacetsByElement(sources.xsdTexts);
  const odsNames = createOdsNames(coreDdl(sources));
  const odsFacts: OdsResourceFacts = {
    authorizationSubjects: readAuthorizationSubjects({
      generated: { 'ed-fi': sources.odsAuthorizationProviders },
      overrides: sources.odsAuthorizationOverrides,
    }),
    queryParameters: readQueryParameters({ 'ed-fi': sources.odsRequests }),
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
  return {
    formatVersion: MODEL_FORMAT_VERSION,
    extensionProjects: [],
    resources,
    abstractResources: abstractResources(sources, index),
  };
}

export function buildModelFiles(sources: Sources, odsSecurity: OdsSecurityTables): ModelFiles {
  const dataStandard: ExtensionImportFile = {
    formatVersion: MODEL_FORMAT_VERSION,
    decimalTypes: readDecimalTypes(sources.xsdTexts),
    odsTables: odsTablesOf(coreDdl(sources)),
  };
  const claims: ClaimsFile = buildOdsClaims(odsSecurity, buildClaims(sources.claims));
  const model = sources.extensions.reduce<ExtendedModel>(
    (extended, extension) => {
      try {
        return withExtensionModel(extended, buildExtensionModel(extension, extended, dataStandard));
      } catch (error) {
        throw new Error(`${extension.folder}: ${error instanceof Error ? error.message : String(error)}`, {
          cause: error,
        });
      }
    },
    { resources: buildCoreResources(sources), claims },
  );
  const odsNames = createOdsNames(
    mergedOdsDdl(
      coreDdl(sources),
      parseOdsDdl(
        sources.extensions.flatMap((extension) => extension.tablesSql),
        sources.extensions.flatMap((extension) => extension.foreignKeysSql),
      ),
    ),
  );
  crossCheckModel(model.resources, model.claims, sources, odsNames);
  return {
    'resources.json': model.resources,
    'descriptors.json': buildDescriptorValues(sources.descriptorValues),
    'school-years.json': buildSchoolYears(sources.schoolYearsSql),
    'claims.json': model.claims,
    'extension-import.json': dataStandard,
  };
}
