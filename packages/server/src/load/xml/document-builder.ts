// Builds one API JSON document from the SAX events of one interchange element, following its generated mapping.
import type { JsonObject, JsonValue } from '../../model/validation/index.js';
import type { IdrefMapping, XmlElementMapping } from './interchange-mapping.js';
import { convertXmlValue } from './xml-values.js';

/** A reference given as `ref="…"`: filled from the element with that XML id once the document is complete. */
export interface PendingIdref {
  readonly target: JsonObject;
  readonly ref: string;
  readonly mapping: IdrefMapping;
  /** Element path, for error messages. */
  readonly location: string;
}

export interface BuiltDocument {
  readonly document: JsonObject;
  /** Conversion problems; a document with any is not sent. */
  readonly problems: readonly string[];
  readonly pendingIdrefs: readonly PendingIdref[];
}

interface Frame {
  /** `undefined`: an element whose content is ignored (an XSD element without an API property, or an error). */
  readonly mapping: XmlElementMapping | undefined;
  readonly target: JsonObject;
  readonly location: string;
  text: string;
}

const LOOKUP_PROBLEM =
  'look-up references (…Lookup) are not supported: they need the target data to resolve; give the …Identity or an XML ref';

function objectAt(parent: JsonObject, steps: readonly string[] | undefined): JsonObject {
  let target = parent;
  for (const step of steps ?? []) {
    if (step.endsWith('[]')) {
      const property = step.slice(0, -2);
      const items = Array.isArray(target[property]) ? (target[property] as JsonValue[]) : [];
      const item: JsonObject = {};
      items.push(item);
      target[property] = items;
      target = item;
    } else {
      const existing = target[step];
      const next: JsonObject = typeof existing === 'object' && !Array.isArray(existing) ? existing : {};
      target[step] = next;
      target = next;
    }
  }
  return target;
}

export class DocumentBuilder {
  readonly #document: JsonObject = {};
  readonly #problems: string[] = [];
  readonly #pendingIdrefs: PendingIdref[] = [];
  readonly #frames: Frame[];

  constructor(elementName: string, mapping: XmlElementMapping) {
    this.#frames = [{ mapping, target: this.#document, location: elementName, text: '' }];
  }

  open(name: string, attributes: Readonly<Record<string, string>>): void {
    const parent = this.#frames.at(-1)!;
    const location = `${parent.location}/${name}`;
    const mapping = this.#childMapping(parent, name, location);
    const target = mapping ? objectAt(parent.target, mapping.path) : parent.target;
    const ref = attributes.ref;
    if (mapping?.idref && ref) this.#pendingIdrefs.push({ target, ref, mapping: mapping.idref, location });
    this.#frames.push({ mapping, target, location, text: '' });
  }

  text(text: string): void {
    const frame = this.#frames.at(-1)!;
    if (frame.mapping?.set !== undefined) frame.text += text;
  }

  close(): void {
    const frame = this.#frames.pop()!;
    const { mapping } = frame;
    if (mapping?.set === undefined || mapping.type === undefined) return;
    const result = convertXmlValue(frame.text, mapping.type, mapping.codeValueNamespace);
    if (!result.ok) {
      this.#problems.push(`${frame.location}: ${result.problem}`);
      return;
    }
    for (const property of typeof mapping.set === 'string' ? [mapping.set] : mapping.set) {
      const existing = frame.target[property];
      if (existing !== undefined && existing !== result.value) {
        this.#problems.push(`${frame.location}: '${result.value}' conflicts with '${String(existing)}' given before`);
      }
      frame.target[property] = result.value;
    }
  }

  build(): BuiltDocument {
    return { document: this.#document, problems: this.#problems, pendingIdrefs: this.#pendingIdrefs };
  }

  #childMapping(parent: Frame, name: string, location: string): XmlElementMapping | undefined {
    if (!parent.mapping) return undefined;
    const mapping = parent.mapping.children?.[name];
    if (mapping === undefined) this.#problems.push(`${location}: not an element of the Ed-Fi interchange schema here`);
    else if (mapping?.unsupported === 'lookup') this.#problems.push(`${location}: ${LOOKUP_PROBLEM}`);
    else if (mapping !== null) return mapping;
    return undefined;
  }
}
