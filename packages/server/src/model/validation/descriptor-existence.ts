// Descriptor resolution during validation (contract §3.11): every descriptor URI in a document must name an existing
// descriptor of the expected type. The lookup is supplied by the caller (a cache over the store) and asked once per
// document, with all of its URIs, so a store that must go to its database does so in one round trip.
import { compilePathCollector, type ProjectNamespace, type ResourceModel } from '../index.js';
import { messages } from './messages.js';
import type { ValidationErrorsBuilder } from './validation-errors-builder.js';
import type { JsonObject } from './validation-result.js';

/** A descriptor URI as a document uses it: the descriptor resource it must name (e.g. `GradeLevelDescriptor`). */
export interface DescriptorUri {
  readonly namespace: ProjectNamespace;
  readonly descriptor: string;
  readonly uri: string;
}

export interface DescriptorLookup {
  /** For each URI, in order, whether a descriptor of its resource exists with it, compared case-insensitively. */
  exist(uris: readonly DescriptorUri[]): Promise<readonly boolean[]>;
  /**
   * For each URI, in order, the URI of the descriptor it names as stored (`namespace#codeValue`, its casing), or
   * undefined when there is none. A lookup with it has documents carry the stored URIs, as the ODS echoes them.
   */
  storedUris?(uris: readonly DescriptorUri[]): Promise<readonly (string | undefined)[]>;
}

export type DescriptorExistenceCheck = (
  document: JsonObject,
  lookup: DescriptorLookup,
  into: ValidationErrorsBuilder,
) => Promise<void>;

interface DescriptorUriAt extends DescriptorUri {
  readonly path: string;
}

/** Replaces the value at a concrete path (`$.items[0].gradeLevelDescriptor`) of a document. */
function setAtPath(document: JsonObject, path: string, value: string): void {
  const steps = [...path.slice(1).matchAll(/\.([^.[]+)|\[(\d+)\]/g)].map((match) => match[1] ?? Number(match[2]));
  let node: unknown = document;
  for (const step of steps.slice(0, -1)) node = (node as Record<string | number, unknown>)[step];
  (node as Record<string | number, unknown>)[steps.at(-1)!] = value;
}

export function compileDescriptorExistenceCheck(resource: ResourceModel): DescriptorExistenceCheck {
  const uses = resource.descriptors.map((use) => ({
    collect: compilePathCollector(use.path),
    namespace: use.descriptorNamespace,
    descriptor: use.descriptor,
  }));

  function urisOf(document: JsonObject): DescriptorUriAt[] {
    const found: DescriptorUriAt[] = [];
    for (const { collect, namespace, descriptor } of uses) {
      collect(document, (value, path) => {
        // A value without '#' was already reported by the shape check.
        if (typeof value === 'string' && value.includes('#')) found.push({ namespace, descriptor, uri: value, path });
      });
    }
    return found;
  }

  return async (document, lookup, into) => {
    const uris = urisOf(document);
    if (uris.length === 0) return;
    const stored = lookup.storedUris === undefined ? undefined : await lookup.storedUris(uris);
    const exist = stored === undefined ? await lookup.exist(uris) : stored.map((uri) => uri !== undefined);
    uris.forEach(({ descriptor, uri, path }, index) => {
      if (!exist[index]) into.add(path, messages.descriptorNotFound(descriptor, uri));
      const storedUri = stored?.[index];
      if (storedUri !== undefined && storedUri !== uri) setAtPath(document, path, storedUri);
    });
  };
}
