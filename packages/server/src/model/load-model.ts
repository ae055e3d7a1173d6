// Reads the generated model files once per folder and checks their format version.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { findModelDir } from './model-location.js';
import {
  MODEL_FORMAT_VERSION,
  type ClaimsFile,
  type DescriptorsFile,
  type ExtensionImportFile,
  type ResourcesFile,
  type SchoolYearsFile,
} from './types.js';

export interface ModelData {
  resources: ResourcesFile;
  descriptors: DescriptorsFile;
  schoolYears: SchoolYearsFile;
  claims: ClaimsFile;
}

function readModelFile<T extends { formatVersion: number }>(modelDir: string, name: string): T {
  const content = JSON.parse(readFileSync(path.join(modelDir, name), 'utf8')) as T;
  if (content.formatVersion !== MODEL_FORMAT_VERSION) {
    throw new Error(
      `${name} has model format ${content.formatVersion}, expected ${MODEL_FORMAT_VERSION}; re-run import-model`,
    );
  }
  return content;
}

const loaded = new Map<string, ModelData>();

export function loadModelData(modelDir: string = findModelDir()): ModelData {
  const cached = loaded.get(modelDir);
  if (cached) return cached;
  const data: ModelData = {
    resources: readModelFile(modelDir, 'resources.json'),
    descriptors: readModelFile(modelDir, 'descriptors.json'),
    schoolYears: readModelFile(modelDir, 'school-years.json'),
    claims: readModelFile(modelDir, 'claims.json'),
  };
  loaded.set(modelDir, data);
  return data;
}

/** What an extension's import reads of the Data Standard besides the model (`model/extension-import.json`). */
export function loadExtensionImportFile(modelDir: string = findModelDir()): ExtensionImportFile {
  return readModelFile(modelDir, 'extension-import.json');
}
