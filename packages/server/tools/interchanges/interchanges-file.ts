// The content of `model/interchanges.json`: the base mapping from the Data Standard's and TPDM's XSDs, and each
// optional extension's part from the core XSD and the XSDs of its folder (alone, as their type names clash).
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { getModelRegistry } from '../../src/model/index.js';
import { INTERCHANGES_FORMAT_VERSION, type InterchangesFile } from '../../src/load/xml/interchange-mapping.js';
import { folderLayout, readExtension } from '../../src/model/import/extension-folder.js';
import { buildInterchanges, extensionPart } from './build-interchanges.js';
import type { UnmappedElement } from './mapping-context.js';
import { readXsdSchema } from './xsd-schema.js';

export interface InterchangesFileBuild {
  file: InterchangesFile;
  /** XSD elements the API model has no property for (their content is ignored when loading), base first. */
  unmapped: UnmappedElement[];
}

function xsdFilesIn(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.xsd'))
    .sort()
    .map((name) => path.join(folder, name));
}

/** `sourceDir` holds the Ed-Fi inputs; each extension folder is one of the model's optional extensions. */
export function buildInterchangesFile(sourceDir: string, extensionFolders: readonly string[]): InterchangesFileBuild {
  const coreXsd = path.join(sourceDir, 'Ed-Fi-Core.xsd');
  const baseFiles = [
    coreXsd,
    ...xsdFilesIn(path.join(sourceDir, 'xsd')),
    ...xsdFilesIn(path.join(sourceDir, 'tpdm-xsd')),
  ];
  const base = buildInterchanges(readXsdSchema(baseFiles), getModelRegistry(), 'tpdm');
  const unmapped = [...base.unmapped];
  const extensions: InterchangesFile['extensions'] = {};
  for (const folder of extensionFolders) {
    const layout = folderLayout(folder);
    const files = layout.xsdFolders.flatMap(xsdFilesIn);
    if (files.length === 0) continue;
    const { namespace } = readExtension(layout);
    const own = buildInterchanges(readXsdSchema([coreXsd, ...files]), getModelRegistry([namespace]), namespace);
    extensions[namespace] = extensionPart(base.mappings, own.mappings);
    unmapped.push(...own.unmapped);
  }
  return { file: { formatVersion: INTERCHANGES_FORMAT_VERSION, ...base.mappings, extensions }, unmapped };
}
