// Builds one extension's part of the model (ExtensionModel) from its folder's contents, against the model it extends:
// the model's resources stand for the Data Standard's sources (reference targets and their integer widths), and the
// Data Standard's ODS tables and XSD decimal types come from model/extension-import.json, so an extension is imported
// the same way by import-model (the shipped ones, TPDM included) and by `edfi-api extensions add` (a user's own,
// without the Ed-Fi inputs).
import type { ModelData } from '../load-model.js';
import { MODEL_FORMAT_VERSION, type ExtensionImportFile, type ExtensionModel, type ResourceModel } from '../types.js';
import { decimalBounds, readDecimalFacetsByElement } from './decimal-bounds.js';
import { buildDescriptorResource } from './descriptor-resources.js';
import { buildAddition } from './extension-additions.js';
import { extensionClaims } from './extension-claims.js';
import type { ExtensionFolder } from './extension-folder.js';
import { indexExtension } from './extension-index.js';
import { createIntegerWidthResolver } from './integer-widths.js';
import { modelWidths } from './model-widths.js';
import { mergedOdsDdl, odsDdlOf, parseOdsDdl } from './ods-ddl.js';
import { readAuthorizationSubjects, readQueryParameters, type OdsResourceFacts } from './ods-generated.js';
import { createOdsNames } from './ods-names.js';
import { compareText } from './ordering.js';
import { buildResource } from './resources.js';

/** The model an extension is built against: its resources and claims. */
export type ExtendedModel = Pick<ModelData, 'resources' | 'claims'>;

/** The ODS code generator's view of the extension's resources when its folder has the files, else the ApiSchema's. */
function resourceFacts(extension: ExtensionFolder): OdsResourceFacts {
  const { namespace } = extension;
  return {
    authorizationSubjects:
      extension.odsAuthorizationProviders === undefined
        ? extension.apiSchemaFacts.authorizationSubjects
        : readAuthorizationSubjects({ generated: { [namespace]: extension.odsAuthorizationProviders }, overrides: [] }),
    queryParameters:
      extension.odsRequests === undefined
        ? extension.apiSchemaFacts.queryParameters
        : readQueryParameters({ [namespace]: extension.odsRequests }),
  };
}

/** The Data Standard resource an addition extends (only those may be extended: TPDM's and Sample's are). */
function extendedResource(model: ExtendedModel, endpoint: string): ResourceModel {
  const resource = model.resources.resources.find(
    (candidate) => candidate.namespace === 'ed-fi' && candidate.endpoint === endpoint,
  );
  if (!resource) throw new Error(`it extends ${endpoint}, which is no Data Standard resource`);
  return resource;
}

function checkNamespace(extension: ExtensionFolder, model: ExtendedModel): void {
  const { namespace } = extension;
  const taken =
    namespace === 'ed-fi' ||
    model.resources.resources.some((resource) => resource.namespace === namespace) ||
    (model.resources.extensionProjects ?? []).some((project) => project.namespace === namespace);
  if (taken) throw new Error(`the model already has a project with the namespace ${namespace}`);
}

/** What the import reads of the Data Standard besides the model (model/extension-import.json). */
export type DataStandardFacts = Pick<ExtensionImportFile, 'decimalTypes' | 'odsTables'>;

/** The extension's part of the model. */
export function buildExtensionModel(
  extension: ExtensionFolder,
  model: ExtendedModel,
  dataStandard: DataStandardFacts,
): ExtensionModel {
  checkNamespace(extension, model);
  const index = indexExtension(extension, model.resources);
  const odsNames = createOdsNames(
    mergedOdsDdl(odsDdlOf(dataStandard.odsTables), parseOdsDdl(extension.tablesSql, extension.foreignKeysSql)),
  );
  const widthOf = createIntegerWidthResolver(index, modelWidths(model.resources));
  const facetsByElement = readDecimalFacetsByElement(extension.xsdTexts, dataStandard.decimalTypes);
  const odsFacts = resourceFacts(extension);
  const context = {
    index,
    integerWidth: widthOf,
    decimalBounds: (leaf: string, precision: number, scale: number) =>
      decimalBounds(leaf, precision, scale, facetsByElement),
    odsNames,
  };
  const resources = index.entries.map((entry) =>
    entry.resource.isDescriptor
      ? buildDescriptorResource(entry, undefined, odsNames, odsFacts)
      : buildResource(entry, {
          ...context,
          integerWidth: (owner, path) => widthOf(owner.namespace, owner.endpoint, path),
          odsFacts,
        }),
  );
  const additions = [...index.extensions.entries()]
    .sort(([a], [b]) => compareText(a, b))
    .map(([endpoint, [addition]]) => buildAddition(addition!, extendedResource(model, endpoint), context));
  return {
    formatVersion: MODEL_FORMAT_VERSION,
    project: {
      namespace: extension.namespace,
      name: extension.projectName,
      version: extension.projectVersion,
      informationalVersion: extension.description,
    },
    resources,
    additions,
    claims: extensionClaims(model.claims, extension, resources),
  };
}
