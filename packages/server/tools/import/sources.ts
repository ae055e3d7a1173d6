// Reads the shared Ed-Fi source files the importer needs from one source folder.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type {
  ClaimsSourceFile,
  Ds51ApiSchemaFile,
  DerivedModelFile,
  DescriptorValuesSourceFile,
} from './source-types.js';
import type { OpenApiFile } from '../../src/model/import/source-types.js';
import type { OdsSecurityScript } from './ods-security.js';
import { compareText } from '../../src/model/import/ordering.js';
import {
  folderLayout,
  readExtension,
  type ExtensionFolder,
  type ExtensionLayout,
} from '../../src/model/import/extension-folder.js';

export interface Sources {
  /** The derived Data Standard model (its `ed-fi` part; extensions, TPDM included, are read from their ApiSchema). */
  derived: DerivedModelFile;
  descriptorsOpenApi: OpenApiFile;
  odsSwaggerDs51: OpenApiFile;
  claims: ClaimsSourceFile;
  descriptorValues: DescriptorValuesSourceFile;
  schoolYearsSql: string;
  /** Core XSD texts (decimal simple types). */
  xsdTexts: string[];
  /** Core ODS PostgreSQL DDL: table definitions and foreign keys (ODS names). */
  odsTablesSql: string[];
  odsForeignKeysSql: string[];
  /** Cross-check source for ODS property names. */
  ds51ApiSchema: Ds51ApiSchemaFile;
  /** ODS 7.3 generated authorization-context providers of the Data Standard, and the ODS's hand-written overrides. */
  odsAuthorizationProviders: string;
  odsAuthorizationOverrides: string[];
  /** ODS 7.3 generated request classes of the Data Standard (the GET-by-example parameters). */
  odsRequests: string;
  /** The ODS 7.3 security database scripts in replay order: `structure/`, then `data-ds-5.2/`, each by file name. */
  odsSecurityScripts: OdsSecurityScript[];
  /** Extensions: TPDM, then the extension folders (`--extension`) in the order given. */
  extensions: ExtensionFolder[];
}

const ODS_GENERATED = 'ods-generated';
const STANDARD_PREFIX = `${ODS_GENERATED}/Standard_Std_5.2.0_`;
const AUTHORIZATION_OVERRIDES = 'ods-security/authorization-overrides';
const SECURITY_SCRIPT_FOLDERS = ['ods-security/structure', 'ods-security/data-ds-5.2'];

/** TPDM's files among the Ed-Fi inputs (they predate the extension folders); read like any extension. */
function tpdmLayout(sourceDir: string): ExtensionLayout {
  return {
    folder: sourceDir,
    apiSchemaFile: path.join(sourceDir, 'tpdm-1.1-ds-5.2-api-schema.json'),
    apiModelFile: path.join(sourceDir, 'tpdm-1.1-ds-5.2-ApiModel-EXTENSION.json'),
    ddlFolder: path.join(sourceDir, 'ods-ddl', 'tpdm-1.1'),
    xsdFolders: [path.join(sourceDir, 'tpdm-xsd')],
    generatedFolders: [path.join(sourceDir, 'ods-generated')],
  };
}

function sqlFilesOf(sourceDir: string, folder: string): string[] {
  return readdirSync(path.join(sourceDir, folder))
    .filter((name) => name.endsWith('.sql'))
    .sort(compareText)
    .map((name) => `${folder}/${name}`);
}

export function readSources(sourceDir: string, extensionFolders: readonly string[] = []): Sources {
  const text = (relative: string): string => readFileSync(path.join(sourceDir, relative), 'utf8');
  const overridesDir = path.join(sourceDir, AUTHORIZATION_OVERRIDES);
  const json = <T>(relative: string): T => JSON.parse(text(relative)) as T;
  return {
    derived: json('derived/ds-5.2-tpdm-1.1-resource-model.derived.json'),
    descriptorsOpenApi: json('ds-5.2-tpdm-openapi-descriptors.json'),
    odsSwaggerDs51: json('ods-api-7.2-ds-5.1-swagger-resources.json'),
    claims: json('ds-5.2-claims.json'),
    descriptorValues: json('descriptors/ds-5.2-descriptors.json'),
    schoolYearsSql: text('ods-ddl/ds-5.2/data-0020-SchoolYears.sql'),
    xsdTexts: [text('Ed-Fi-Core.xsd')],
    odsTablesSql: [text('ods-ddl/ds-5.2/0020-Tables.sql')],
    odsForeignKeysSql: [text('ods-ddl/ds-5.2/0030-ForeignKeys.sql')],
    ds51ApiSchema: json('ds-5.1-api-schema.json'),
    odsAuthorizationProviders: text(
      `${STANDARD_PREFIX}Security_Authorization_EntityAuthorizationContextProviders.generated.cs`,
    ),
    odsAuthorizationOverrides: readdirSync(overridesDir)
      .filter((name) => name.endsWith('.cs'))
      .sort()
      .map((name) => text(`${AUTHORIZATION_OVERRIDES}/${name}`)),
    odsRequests: text(`${STANDARD_PREFIX}Requests_Requests.generated.cs`),
    odsSecurityScripts: SECURITY_SCRIPT_FOLDERS.flatMap((folder) => sqlFilesOf(sourceDir, folder)).map((name) => ({
      name,
      sql: text(name),
    })),
    extensions: [
      readExtension(tpdmLayout(sourceDir)),
      ...extensionFolders.map((folder) => readExtension(folderLayout(folder, path.join(sourceDir, ODS_GENERATED)))),
    ],
  };
}
