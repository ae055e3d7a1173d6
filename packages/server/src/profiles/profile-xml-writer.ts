// Writes profile definitions back as ODS profile XML (what `profiles export` prints), in the XSD's element order.
import type { CollectionContent, MemberContent, NamedContent, ProfileDefinition } from './definition.js';

function escaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function attributes(values: Readonly<Record<string, string | undefined>>): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escaped(value)}"`)
    .join('');
}

function element(indent: string, name: string, attrs: string, children: readonly string[]): string[] {
  if (children.length === 0) return [`${indent}<${name}${attrs} />`];
  return [`${indent}<${name}${attrs}>`, ...children, `${indent}</${name}>`];
}

function named(indent: string, tag: string, content: NamedContent | CollectionContent): string[] {
  const attrs = attributes({
    name: content.name,
    memberSelection: content.memberSelection,
    logicalSchema: content.logicalSchema,
  });
  const children = membersOf(`${indent}  `, content);
  const filter = 'filter' in content ? content.filter : undefined;
  if (filter !== undefined) {
    const values = filter.values.map((value) => `${indent}    <Value>${escaped(value)}</Value>`);
    children.push(
      ...element(
        `${indent}  `,
        'Filter',
        attributes({ propertyName: filter.propertyName, filterMode: filter.filterMode }),
        values,
      ),
    );
  }
  return element(indent, tag, attrs, children);
}

function membersOf(indent: string, content: MemberContent): string[] {
  return [
    ...content.properties.map((name) => `${indent}<Property${attributes({ name })} />`),
    ...content.objects.flatMap((object) => named(indent, 'Object', object)),
    ...content.collections.flatMap((collection) => named(indent, 'Collection', collection)),
    ...content.extensions.flatMap((extension) => named(indent, 'Extension', extension)),
  ];
}

function contentType(indent: string, tag: string, content: MemberContent | undefined): string[] {
  if (content === undefined) return [];
  return element(
    indent,
    tag,
    attributes({ memberSelection: content.memberSelection }),
    membersOf(`${indent}  `, content),
  );
}

export function profilesXml(profiles: readonly ProfileDefinition[]): string {
  const lines = ['<?xml version="1.0" encoding="utf-8"?>', '<Profiles>'];
  for (const profile of profiles) {
    const resources = profile.resources.flatMap((resource) =>
      element('    ', 'Resource', attributes({ name: resource.name, logicalSchema: resource.logicalSchema }), [
        ...contentType('      ', 'ReadContentType', resource.read),
        ...contentType('      ', 'WriteContentType', resource.write),
      ]),
    );
    lines.push(...element('  ', 'Profile', attributes({ name: profile.name }), resources));
  }
  lines.push('</Profiles>', '');
  return lines.join('\n');
}
