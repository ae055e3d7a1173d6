// Reads an Ed-Fi extension folder: the MetaEd ApiSchema (required), the ODS PostgreSQL DDL (`ods-ddl-pgsql/`, for the
// ODS member names), the extension XSDs (`*-xsd/`), an optional `claims.json`, and the ODS code generator's files for
// the project, from the folder's own `ods-generated/` or a shared one (the Ed-Fi inputs'); without them the
// authorization subjects and GET-by-example parameters are the ApiSchema's.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { apiSchemaResourceFacts, toSourceResource, type ApiSchemaFile } from './api-schema-entries.js';
import type { OdsResourceFacts } from './ods-generated.js';
import { compareText } from './ordering.js';
import type { ExtensionProjectSource } from './source-index.js';
import type { OdsApiModelFile } from './source-types.js';

export interface ExtensionFolder extends ExtensionProjectSource {
  folder: string;
  projectVersion: string;
  description: string;
  tablesSql: string[];
  foreignKeysSql: string[];
  xsdTexts: string[];
  /** ODS generated authorization-context providers and request classes, when the generator's files are found. */
  odsAuthorizationProviders?: string;
  odsRequests?: string;
  /** The authorization subjects and GET-by-example parameters the ApiSchema gives (used without the files above). */
  apiSchemaFacts: OdsResourceFacts;
  /** The folder's own claims file (overrides the default grants), as JSON. */
  claims?: unknown;
  /** The ODS ApiModel (`*-ApiModel-EXTENSION.json`), a cross-check of the ODS member names, when present. */
  apiModel?: OdsApiModelFile;
}

function filesIn(folder: string, accept: (name: string) => boolean): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter(accept)
    .sort(compareText)
    .map((name) => path.join(folder, name));
}

function readJson<T>(file: string): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (error) {
    throw new Error(`${file}: not JSON (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  }
}

function onlyFile(folder: string, suffix: string): string | undefined {
  const found = filesIn(folder, (name) => name.endsWith(suffix));
  if (found.length > 1) throw new Error(`${folder}: more than one *${suffix}`);
  return found[0];
}

function generatedFile(folders: string[], projectName: string, version: string, kind: string): string | undefined {
  const prefix = `Extensions.${projectName}.${version}_`;
  for (const folder of folders) {
    const found = filesIn(folder, (name) => name.startsWith(prefix) && name.endsWith(`_${kind}.generated.cs`));
    if (found[0]) return readFileSync(found[0], 'utf8');
  }
  return undefined;
}

/** Where an extension's files are: an extension folder's standard layout, or TPDM's files among the Ed-Fi inputs. */
export interface ExtensionLayout {
  folder: string;
  apiSchemaFile: string | undefined;
  apiModelFile: string | undefined;
  ddlFolder: string;
  xsdFolders: string[];
  generatedFolders: string[];
}

/** The standard layout of an extension folder; `sharedGenerated` is the shared `ods-generated/` folder, if any. */
export function folderLayout(folder: string, sharedGenerated?: string): ExtensionLayout {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new Error(`${folder}: not a folder`);
  return {
    folder,
    apiSchemaFile: onlyFile(folder, '-api-schema.json') ?? onlyFile(folder, 'ApiSchema.json'),
    apiModelFile: onlyFile(folder, '-ApiModel-EXTENSION.json'),
    ddlFolder: path.join(folder, 'ods-ddl-pgsql'),
    xsdFolders: filesIn(folder, (name) => name.endsWith('-xsd')),
    generatedFolders: [path.join(folder, 'ods-generated'), ...(sharedGenerated ? [sharedGenerated] : [])],
  };
}

/** Reads and checks an extension's files. */
export function readExtension(layout: ExtensionLayout): ExtensionFolder {
  const { folder, apiSchemaFile: schemaFile, apiModelFile, ddlFolder, xsdFolders, generatedFolders } = layout;
  if (!schemaFile) throw new Error(`${folder}: no MetaEd ApiSchema (*-api-schema.json)`);
  const apiSchema = readJson<ApiSchemaFile>(schemaFile);
  const project = apiSchema.projectSchema;
  if (!project?.isExtensionProject) throw new Error(`${schemaFile}: not an extension project's ApiSchema`);
  if (typeof project.resourceSchemas !== 'object' || project.resourceSchemas === null) {
    throw new Error(`${schemaFile}: no resourceSchemas`);
  }
  if (!/^[a-z][a-zA-Z0-9]*$/.test(project.projectEndpointName)) {
    throw new Error(`${schemaFile}: unusable projectEndpointName ${JSON.stringify(project.projectEndpointName)}`);
  }
  const tablesSql = filesIn(ddlFolder, (name) => name.endsWith('-Tables.sql'));
  const foreignKeysSql = filesIn(ddlFolder, (name) => name.endsWith('-ForeignKeys.sql'));
  if (tablesSql.length === 0) throw new Error(`${folder}: no ODS DDL (${path.basename(ddlFolder)}/*-Tables.sql)`);
  const version = project.projectVersion;
  const authorization = generatedFile(
    generatedFolders,
    project.projectName,
    version,
    'EntityAuthorizationContextProviders',
  );
  const requests = generatedFile(generatedFolders, project.projectName, version, 'Requests');
  const claimsFile = path.join(folder, 'claims.json');
  return {
    folder,
    namespace: project.projectEndpointName,
    projectName: project.projectName,
    projectVersion: version,
    description: project.description ?? '',
    apiSchemaFacts: apiSchemaResourceFacts(project, project.projectEndpointName),
    resources: Object.fromEntries(
      Object.entries(project.resourceSchemas)
        .sort(([a], [b]) => compareText(a, b))
        .map(([endpoint, schema]) => [endpoint, toSourceResource(project, schema)]),
    ),
    tablesSql: tablesSql.map((file) => readFileSync(file, 'utf8')),
    foreignKeysSql: foreignKeysSql.map((file) => readFileSync(file, 'utf8')),
    xsdTexts: xsdFolders.flatMap((xsd) =>
      filesIn(xsd, (name) => name.endsWith('.xsd')).map((file) => readFileSync(file, 'utf8')),
    ),
    ...(authorization ? { odsAuthorizationProviders: authorization } : {}),
    ...(requests ? { odsRequests: requests } : {}),
    ...(apiModelFile ? { apiModel: readJson<OdsApiModelFile>(apiModelFile) } : {}),
    ...(existsSync(claimsFile) ? { claims: readJson<unknown>(claimsFile) } : {}),
  };
}
