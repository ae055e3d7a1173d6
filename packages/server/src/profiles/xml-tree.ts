// A profile definition's XML as an element tree; what is not well-formed becomes ProfileDefinitionError with the line
// where reading stopped.
import { parseXmlTree, type XmlElement } from '../xml/xml-tree.js';
import { ProfileDefinitionError } from './definition-error.js';

export type { XmlElement };

export function readXmlTree(xml: string): XmlElement {
  let root: XmlElement | undefined;
  try {
    root = parseXmlTree(xml);
  } catch (error) {
    throw new ProfileDefinitionError(`The profile definition is not well-formed XML: ${(error as Error).message}`);
  }
  if (root === undefined) throw new ProfileDefinitionError('The profile definition has no root element.');
  return root;
}
