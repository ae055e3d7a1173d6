// Counts the top-level elements of interchange files by the resource they load into, independently of the loader's
// own index pass (a plain SAX scan), as the oracle for "items per resource".
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SaxesParser } from 'saxes';
import { getInterchangeMappings } from '../../../src/load/xml/interchange-mapping.js';

/** `/ed-fi/students` → elements in all `.xml` files of the folder. */
export function elementCountsByResource(folder: string): Map<string, number> {
  const { documents } = getInterchangeMappings();
  const counts = new Map<string, number>();
  for (const name of readdirSync(folder).filter((file) => file.endsWith('.xml'))) {
    const parser = new SaxesParser({ xmlns: false });
    let depth = 0;
    parser.on('opentag', (tag) => {
      depth++;
      const mapping = depth === 2 ? documents[tag.name] : undefined;
      if (mapping) {
        const resource = `/${mapping.namespace}/${mapping.endpoint}`;
        counts.set(resource, (counts.get(resource) ?? 0) + 1);
      }
    });
    parser.on('closetag', () => depth--);
    parser.write(readFileSync(path.join(folder, name), 'utf8')).close();
  }
  return counts;
}
