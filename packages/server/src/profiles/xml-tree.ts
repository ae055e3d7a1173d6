// Reads an XML text into a small element tree (names, attributes, text, lines) with saxes; well-formedness errors
// become ProfileDefinitionError with the line where reading stopped.
import { SaxesParser } from 'saxes';
import { ProfileDefinitionError } from './definition-error.js';

export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: XmlElement[];
  /** The element's own text (character data directly inside it), untrimmed. */
  text: string;
  readonly line: number;
}

export function readXmlTree(xml: string): XmlElement {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const open: XmlElement[] = [];
  let root: XmlElement | undefined;
  parser.on('opentag', (tag) => {
    const element: XmlElement = {
      name: tag.name,
      attributes: tag.attributes as Record<string, string>,
      children: [],
      text: '',
      line: parser.line,
    };
    const parent = open[open.length - 1];
    if (parent === undefined) root = element;
    else parent.children.push(element);
    open.push(element);
  });
  const addText = (text: string): void => {
    const current = open[open.length - 1];
    if (current !== undefined) current.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => void open.pop());
  try {
    parser.write(xml.replace(/^\uFEFF/, '')).close();
  } catch (error) {
    throw new ProfileDefinitionError(`The profile definition is not well-formed XML: ${(error as Error).message}`);
  }
  if (root === undefined) throw new ProfileDefinitionError('The profile definition has no root element.');
  return root;
}
