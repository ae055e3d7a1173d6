// A small XML document read whole into elements with their attributes (the security metadata keeps everything in
// attributes, so text is dropped).
import { SaxesParser } from 'saxes';

export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  /** 1-based, for messages. */
  readonly line: number;
}

interface OpenElement extends XmlElement {
  readonly children: XmlElement[];
}

/** The root element; throws an Error naming the line for text that is not well-formed XML. */
export function parseXmlTree(text: string): XmlElement {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const open: OpenElement[] = [];
  let root: XmlElement | undefined;
  parser.on('opentag', (tag) => {
    const element: OpenElement = {
      name: tag.name,
      attributes: tag.attributes as Record<string, string>,
      children: [],
      line: parser.line,
    };
    const parent = open.at(-1);
    if (parent === undefined) root = element;
    else parent.children.push(element);
    open.push(element);
  });
  parser.on('closetag', () => open.pop());
  parser.write(text).close();
  if (root === undefined) throw new Error('The document has no root element.');
  return root;
}
