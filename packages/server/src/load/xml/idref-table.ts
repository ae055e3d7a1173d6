// The XML ids of one interchange file and the key values of the elements carrying them, so that `ref="…"` references
// can be filled in. Entries keep only key values once resolved, so memory grows with the number of ids, not documents.
import type { ResourceModel } from '../../model/index.js';
import type { JsonObject, JsonValue } from '../../model/validation/index.js';
import type { BuiltDocument, PendingIdref } from './document-builder.js';

interface IdEntry {
  readonly resource: ResourceModel;
  /** Until resolved, the whole document; afterwards only its key values by path. */
  built?: BuiltDocument;
  keyValues?: Map<string, JsonValue>;
}

function valueAtPath(document: JsonObject, path: string): JsonValue | undefined {
  let value: JsonValue | undefined = document;
  for (const property of path.slice(2).split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = value[property];
  }
  return value;
}

/** Key paths of the resource, plus the abstract superclass's name for its id (`$.educationOrganizationId`). */
function keyPathsOf(resource: ResourceModel): Map<string, string> {
  const paths = new Map(resource.identityPaths.map((path) => [path, path]));
  const rename = resource.superclass?.identityRename;
  if (rename) paths.set(rename.to, rename.from);
  return paths;
}

export class IdrefTable {
  readonly #entries = new Map<string, IdEntry>();
  readonly #resolving = new Set<string>();

  add(xmlId: string, resource: ResourceModel, built: BuiltDocument): void {
    this.#entries.set(xmlId, { resource, built });
  }

  /** Fills a document's `ref` references; returns the problems of refs that name no usable element. */
  fill(pending: readonly PendingIdref[]): string[] {
    const problems: string[] = [];
    for (const { target, ref, mapping, location } of pending) {
      const keyValues = this.#keyValuesOf(ref);
      if (!keyValues) {
        problems.push(`${location}: ref '${ref}' names no element with that id in this file`);
        continue;
      }
      for (const [property, targetPaths] of Object.entries(mapping.fields)) {
        const value = targetPaths.map((path) => keyValues.get(path)).find((candidate) => candidate !== undefined);
        if (value !== undefined) target[property] ??= value;
      }
    }
    return problems;
  }

  /** Resolves every entry, dropping the documents and keeping only key values. */
  compact(): void {
    for (const id of this.#entries.keys()) this.#keyValuesOf(id);
  }

  #keyValuesOf(id: string): Map<string, JsonValue> | undefined {
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    if (entry.keyValues) return entry.keyValues;
    if (!entry.built || this.#resolving.has(id)) return undefined;
    this.#resolving.add(id);
    this.fill(entry.built.pendingIdrefs);
    this.#resolving.delete(id);
    const keyValues = new Map<string, JsonValue>();
    for (const [path, sourcePath] of keyPathsOf(entry.resource)) {
      const value = valueAtPath(entry.built.document, sourcePath);
      if (value !== undefined) keyValues.set(path, value);
    }
    entry.keyValues = keyValues;
    entry.built = undefined;
    return keyValues;
  }
}
