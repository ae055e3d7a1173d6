// GET {root}/metadata/xsd, its per-schema file lists and the XSD files (contract §1.6). The XSDs are Ed-Fi's files, so
// they are never part of this repository: they are read at run time from the Ed-Fi inputs folder (`../shared/edfi`
// beside the repository by default), core from its top level and `xsd/`, TPDM from `tpdm-xsd/`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DATA_MODELS } from './api-version.js';

export interface XsdSchema {
  /** The ODS schema's logical name, e.g. `Ed-Fi`, `TPDM`. */
  readonly name: string;
  /** Its URL segment, e.g. `ed-fi`. */
  readonly uriSegment: string;
  readonly version: string;
  readonly isCore: boolean;
  /** Absolute path of each `.xsd` file, by file name (sorted). */
  readonly files: ReadonlyMap<string, string>;
}

export interface XsdSchemaListing {
  readonly description: string;
  readonly name: string;
  readonly version: string;
  readonly files: string;
}

function xsdFilesIn(folders: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const folder of folders) {
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder).sort()) if (name.endsWith('.xsd')) files.set(name, path.join(folder, name));
  }
  return files;
}

function versionOf(name: string): string {
  return DATA_MODELS.find((model) => model.name === name)?.version ?? '';
}

/** The schemas whose XSDs the Ed-Fi inputs folder holds (none when it is absent). */
export function xsdSchemasIn(inputsFolder: string): XsdSchema[] {
  const schemas: XsdSchema[] = [
    {
      name: 'Ed-Fi',
      uriSegment: 'ed-fi',
      version: versionOf('Ed-Fi'),
      isCore: true,
      files: xsdFilesIn([inputsFolder, path.join(inputsFolder, 'xsd')]),
    },
    {
      name: 'TPDM',
      uriSegment: 'tpdm',
      version: versionOf('TPDM'),
      isCore: false,
      files: xsdFilesIn([path.join(inputsFolder, 'tpdm-xsd')]),
    },
  ];
  return schemas.filter((schema) => schema.files.size > 0);
}

export class XsdMetadata {
  constructor(private readonly schemas: readonly XsdSchema[]) {}

  listing(root: string): XsdSchemaListing[] {
    return this.schemas.map((schema) => ({
      description: schema.isCore
        ? `Core schema (${schema.name}) files for the data model`
        : `Extension ${schema.name} blended with Core schema files for the data model`,
      name: schema.name,
      version: schema.version,
      files: `${root}/metadata/xsd/${schema.uriSegment}/files`,
    }));
  }

  /** The URLs of a schema's files, an extension's together with the core's, in ordinal order; none when unknown. */
  fileUrls(root: string, uriSegment: string): string[] {
    const schema = this.#schema(uriSegment);
    if (schema === undefined) return [];
    const core = schema.isCore ? [] : this.schemas.filter((candidate) => candidate.isCore);
    const urlsOf = ({ uriSegment: segment, files }: XsdSchema) =>
      [...files.keys()].map((name) => `${root}/metadata/xsd/${segment}/${name}`);
    return [schema, ...core].flatMap(urlsOf).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** The text of one listed file; undefined for any other name. */
  fileText(uriSegment: string, fileName: string): string | undefined {
    const file = this.#schema(uriSegment)?.files.get(fileName);
    return file === undefined ? undefined : readFileSync(file, 'utf8');
  }

  #schema(uriSegment: string): XsdSchema | undefined {
    return this.schemas.find((schema) => schema.uriSegment === uriSegment.toLowerCase());
  }
}
