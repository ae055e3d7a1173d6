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
  readonly name: string;
  readonly parent: Frame | undefined;
  text: string;
}

/** The element path of a frame (`Student/Name/FirstName`), spelled out only for a message. */
function locationOf(frame: Frame): string {
  return frame.parent ? `${locationOf(frame.parent)}/${frame.name}` : frame.name;
}

const NOT_IN_SCHEMA_PROBLEM = 'not an element of the Ed-Fi interchange schema here';
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
    this.#frames = [{ mapping, target: this.#document, name: elementName, parent: undefined, text: '' }];
  }

  open(name: string, attributes: Readonly<Record<string, string>>): void {
    const parent = this.#frames.at(-1)!;
    const mapping = this.#childMapping(parent, name);
    const target = mapping ? objectAt(parent.target, mapping.path) : parent.target;
    const frame: Frame = { mapping, target, name, parent, text: '' };
    const ref = attributes.ref;
    if (mapping?.idref && ref) {
      this.#pendingIdrefs.push({ target, ref, mapping: mapping.idref, location: locationOf(frame) });
    }
    this.#frames.push(frame);
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
      this.#problems.push(`${locationOf(frame)}: ${result.problem}`);
      return;
    }
    for (const property of typeof mapping.set === 'string' ? [mapping.set] : mapping.set) {
      const existing = frame.target[property];
      if (existing !== undefined && existing !== result.value) {
        const conflict = `'${result.value}' conflicts with '${String(existing)}' given before`;
        this.#problems.push(`${locationOf(frame)}: ${conflict}`);
      }
      frame.target[property] = result.value;
    }
  }

  build(): BuiltDocument {
    return { document: this.#document, problems: this.#problems, pendingIdrefs: this.#pendingIdrefs };
  }

  #childMapping(parent: Frame, name: string): XmlElementMapping | undefined {
    if (!parent.mapping) return undefined;
    const mapping = parent.mapping.children?.[name];
    if (mapping !== undefined && mapping !== null && mapping.unsupported !== 'lookup') return mapping;
    if (mapping === undefined) this.#problems.push(`${locationOf(parent)}/${name}: ${NOT_IN_SCHEMA_PROBLEM}`);
    else if (mapping?.unsupported === 'lookup') this.#problems.push(`${locationOf(parent)}/${name}: ${LOOKUP_PROBLEM}`);
    return undefined;
  }
}
