// Reads profile definitions from the ODS profile XML, enforcing what Ed-Fi-ODS-API-Profiles.xsd declares: the element
// sequence of each type (order and occurrences), required and known attributes, the enumerations, and no stray text.
// Names must also be unique where the ODS looks them up by name (profiles, and resources within a profile).
import {
  FILTER_MODES,
  MEMBER_SELECTIONS,
  type CollectionContent,
  type FilterMode,
  type ItemFilter,
  type MemberContent,
  type MemberSelection,
  type NamedContent,
  type ProfileDefinition,
  type ResourceContent,
} from './definition.js';
import { ProfileDefinitionError } from './definition-error.js';
import { readXmlTree, type XmlElement } from './xml-tree.js';

/** One particle of an element type's sequence: a child name and how often it may occur there. */
interface Particle {
  readonly name: string;
  readonly min: number;
  readonly max: number;
}

const MANY = Number.POSITIVE_INFINITY;
const CLASS_PARTICLES: readonly Particle[] = [
  { name: 'Property', min: 0, max: MANY },
  { name: 'Object', min: 0, max: MANY },
  { name: 'Collection', min: 0, max: MANY },
  { name: 'Extension', min: 0, max: MANY },
];
const EXTENSION_PARTICLES = CLASS_PARTICLES.slice(0, 3);
const FILTER_PARTICLE: Particle = { name: 'Filter', min: 0, max: 1 };

function fail(element: XmlElement, message: string): never {
  throw new ProfileDefinitionError(`Line ${element.line}: ${message}`);
}

/** Checks the children against the sequence, in order, and returns them by particle name. */
function sequenceOf(element: XmlElement, particles: readonly Particle[]): Map<string, XmlElement[]> {
  const found = new Map<string, XmlElement[]>(particles.map((particle) => [particle.name, []]));
  let position = 0;
  for (const child of element.children) {
    while (position < particles.length && particles[position]!.name !== child.name) position++;
    const particle = particles[position];
    if (particle === undefined) {
      const allowed = particles.map((p) => `'${p.name}'`).join(', ');
      fail(child, `element '${child.name}' is not expected in '${element.name}' here (expected ${allowed || 'none'}).`);
    }
    const list = found.get(particle.name)!;
    if (list.length === particle.max)
      fail(child, `element '${child.name}' may occur at most once in '${element.name}'.`);
    list.push(child);
  }
  for (const particle of particles) {
    if (found.get(particle.name)!.length < particle.min)
      fail(element, `element '${element.name}' must contain a '${particle.name}' element.`);
  }
  if (element.text.trim() !== '') fail(element, `element '${element.name}' may not contain text.`);
  return found;
}

/** The attributes, after checking that required ones are present and no unknown one is. */
function attributesOf(element: XmlElement, required: readonly string[], optional: readonly string[] = []) {
  const known = new Set([...required, ...optional]);
  for (const name of Object.keys(element.attributes)) {
    if (!known.has(name) && !name.startsWith('xmlns'))
      fail(element, `attribute '${name}' is not allowed on '${element.name}'.`);
  }
  for (const name of required) {
    if (element.attributes[name] === undefined)
      fail(element, `the required attribute '${name}' is missing on '${element.name}'.`);
  }
  return element.attributes;
}

function enumerated<T extends string>(element: XmlElement, attribute: string, values: readonly T[]): T {
  const value = element.attributes[attribute]!;
  if (!(values as readonly string[]).includes(value))
    fail(element, `'${value}' is not a valid ${attribute} (expected one of ${values.join(', ')}).`);
  return value as T;
}

function filterOf(element: XmlElement): ItemFilter {
  const { propertyName } = attributesOf(element, ['propertyName', 'filterMode']);
  const filterMode = enumerated<FilterMode>(element, 'filterMode', FILTER_MODES);
  const values = sequenceOf(element, [{ name: 'Value', min: 1, max: MANY }])
    .get('Value')!
    .map((value) => {
      attributesOf(value, []);
      if (value.children.length > 0) fail(value, "element 'Value' may contain only text.");
      return value.text.trim();
    });
  return { propertyName: propertyName!, filterMode, values };
}

function contentOf(element: XmlElement, particles: readonly Particle[], isExtension: boolean): MemberContent {
  const memberSelection = enumerated<MemberSelection>(element, 'memberSelection', MEMBER_SELECTIONS);
  const children = sequenceOf(element, particles);
  const named = (child: XmlElement): NamedContent => namedContentOf(child, isExtension);
  return {
    memberSelection,
    properties: children.get('Property')!.map((property) => attributesOf(property, ['name']).name!),
    objects: children.get('Object')!.map(named),
    collections: children.get('Collection')!.map((child) => collectionOf(child, isExtension)),
    extensions: (children.get('Extension') ?? []).map((child) => namedContentOf(child, true)),
  };
}

function namedContentOf(element: XmlElement, isExtension: boolean): NamedContent {
  const { name, logicalSchema } = attributesOf(element, ['name', 'memberSelection'], ['logicalSchema']);
  const particles = isExtension ? EXTENSION_PARTICLES : CLASS_PARTICLES;
  return {
    name: name!,
    ...(logicalSchema === undefined ? {} : { logicalSchema }),
    ...contentOf(element, element.name === 'Collection' ? [...particles, FILTER_PARTICLE] : particles, isExtension),
  };
}

function collectionOf(element: XmlElement, isExtension: boolean): CollectionContent {
  const content = namedContentOf(element, isExtension);
  const filter = element.children.find((child) => child.name === 'Filter');
  return filter === undefined ? content : { ...content, filter: filterOf(filter) };
}

function contentTypeOf(element: XmlElement | undefined): MemberContent | undefined {
  if (element === undefined) return undefined;
  attributesOf(element, ['memberSelection']);
  return contentOf(element, CLASS_PARTICLES, false);
}

function resourceOf(element: XmlElement): ResourceContent {
  const { name, logicalSchema } = attributesOf(element, ['name'], ['logicalSchema']);
  const children = sequenceOf(element, [
    { name: 'ReadContentType', min: 0, max: 1 },
    { name: 'WriteContentType', min: 0, max: 1 },
  ]);
  const read = contentTypeOf(children.get('ReadContentType')![0]);
  const write = contentTypeOf(children.get('WriteContentType')![0]);
  return {
    name: name!,
    ...(logicalSchema === undefined ? {} : { logicalSchema }),
    ...(read === undefined ? {} : { read }),
    ...(write === undefined ? {} : { write }),
  };
}

function requireUnique(elements: readonly XmlElement[], what: string): void {
  const seen = new Set<string>();
  for (const element of elements) {
    const key = `${element.attributes.logicalSchema ?? ''}/${element.attributes.name!.toLowerCase()}`;
    if (seen.has(key)) fail(element, `${what} '${element.attributes.name}' is defined more than once.`);
    seen.add(key);
  }
}

function profileOf(element: XmlElement): ProfileDefinition {
  const { name } = attributesOf(element, ['name']);
  if (name!.trim() === '') fail(element, 'a profile name may not be empty.');
  const resources = sequenceOf(element, [{ name: 'Resource', min: 1, max: MANY }]).get('Resource')!;
  resources.forEach((resource) => attributesOf(resource, ['name'], ['logicalSchema']));
  requireUnique(resources, `In profile '${name}', resource`);
  return { name: name!, resources: resources.map(resourceOf) };
}

/** The profiles of a `<Profiles>` document, or ProfileDefinitionError naming the line and the rule broken. */
export function parseProfilesXml(xml: string): ProfileDefinition[] {
  const root = readXmlTree(xml);
  if (root.name !== 'Profiles') fail(root, `the root element must be 'Profiles', not '${root.name}'.`);
  attributesOf(root, []);
  const profiles = sequenceOf(root, [{ name: 'Profile', min: 1, max: MANY }]).get('Profile')!;
  profiles.forEach((profile) => attributesOf(profile, ['name']));
  requireUnique(profiles, 'Profile');
  return profiles.map(profileOf);
}
