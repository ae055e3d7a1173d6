// Reads an XML text whole into a small element tree (names, attributes, own text, lines) with saxes: what the profile
// definitions and the ODS security metadata are read from.
import { SaxesParser } from 'saxes';

export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  /** The element's own text (character data directly inside it), untrimmed. */
  readonly text: string;
  /** 1-based, for messages. */
  readonly line: number;
}

interface OpenElement extends XmlElement {
  readonly children: XmlElement[];
  text: string;
}

/**
 * The root element, or undefined when the text has none; throws saxes's Error, which names the line, for text that
 * is not well-formed XML. A leading byte-order mark is skipped.
 */
export function parseXmlTree(xml: string): XmlElement | undefined {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const open: OpenElement[] = [];
  let root: XmlElement | undefined;
  parser.on('opentag', (tag) => {
    const element: OpenElement = {
      name: tag.name,
      attributes: tag.attributes as Record<string, string>,
      children: [],
      text: '',
      line: parser.line,
    };
    const parent = open.at(-1);
    if (parent === undefined) root = element;
    else parent.children.push(element);
    open.push(element);
  });
  const addText = (text: string): void => {
    const current = open.at(-1);
    if (current !== undefined) current.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => void open.pop());
  parser.write(xml.replace(/^\uFEFF/, '')).close();
  return root;
}
