// Public surface of extension imports: an extension folder read, checked and built into its part of the model.
import path from 'node:path';
import { loadExtensionImportFile, modelData } from '../index.js';
import type { ExtensionModel } from '../types.js';
import { folderLayout, readExtension, type ExtensionFolder } from './extension-folder.js';
import { buildExtensionModel, type ExtendedModel } from './extension-model.js';

export type { ExtensionFolder } from './extension-folder.js';

/** A folder that is no usable extension; the message names the folder and what is wrong. */
export class ExtensionFolderError extends Error {}

function refusal(error: unknown, prefix: string): ExtensionFolderError {
  return new ExtensionFolderError(`${prefix}${error instanceof Error ? error.message : String(error)}`, {
    cause: error,
  });
}

/** Reads and checks an extension folder (see extension-folder.ts); the refusal names the file and what is wrong. */
export function readExtensionFolder(folder: string): ExtensionFolder {
  try {
    return readExtension(folderLayout(path.resolve(folder)));
  } catch (error) {
    throw refusal(error, ''); // the reader names the file
  }
}

/**
 * Builds a read extension folder's part of the model against `model` (by default the process's: the committed model
 * and the extensions added to the stores it opened).
 */
export function buildExtensionPart(extension: ExtensionFolder, model: ExtendedModel = modelData()): ExtensionModel {
  try {
    return buildExtensionModel(extension, model, loadExtensionImportFile());
  } catch (error) {
    throw refusal(error, `${extension.folder}: `);
  }
}

/** Reads an extension folder and builds its part of the model against `model` (see buildExtensionPart). */
export function importExtensionFolder(folder: string, model: ExtendedModel = modelData()): ExtensionModel {
  return buildExtensionPart(readExtensionFolder(folder), model);
}
