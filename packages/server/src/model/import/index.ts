// Public surface of extension imports: an extension folder read, checked and built into its part of the model.
import path from 'node:path';
import { loadExtensionImportFile, modelData } from '../index.js';
import type { ExtensionModel } from '../types.js';
import { folderLayout, readExtension, type ExtensionFolder } from './extension-folder.js';
import { buildExtensionModel, type ExtendedModel } from './extension-model.js';

/** A folder that is no usable extension; the message names the folder and what is wrong. */
export class ExtensionFolderError extends Error {}

/**
 * Reads an extension folder (see extension-folder.ts) and builds its part of the model against `model` (by default
 * the process's: the committed model and the extensions added to the stores it opened).
 */
export function importExtensionFolder(folder: string, model: ExtendedModel = modelData()): ExtensionModel {
  const refusal = (error: unknown, prefix: string) =>
    new ExtensionFolderError(`${prefix}${error instanceof Error ? error.message : String(error)}`, { cause: error });
  let extension: ExtensionFolder;
  try {
    extension = readExtension(folderLayout(path.resolve(folder)));
  } catch (error) {
    throw refusal(error, ''); // the reader names the file
  }
  try {
    return buildExtensionModel(extension, model, loadExtensionImportFile());
  } catch (error) {
    throw refusal(error, `${folder}: `);
  }
}
