// Generates one valid scalar for a model property: strings within their lengths, numbers within their ranges and
// scale, canonical dates/times/date-times, and descriptor URIs (real default values where the model ships them).
import type { DescriptorValue, ProjectNamespace, PropertyShape } from '../model/index.js';
import { seededNumber, seededToken } from './seeded-random.js';

/** Where a value is generated: a stable key for its position, and its item position within a collection. */
export interface ValueSite {
  readonly seed: number;
  readonly key: string;
  readonly ordinal: number;
}

const TOKEN_LENGTH = 8;
const DAY_MS = 24 * 60 * 60 * 1000;
const FIRST_DATE = Date.UTC(2015, 0, 1);
const DATE_SPAN_DAYS = 3650;

/** The URI authority of generated namespaces, by project (`uri://ed-fi.org`, `uri://tpdm.ed-fi.org`). */
function namespaceAuthority(project: ProjectNamespace): string {
  return project === 'ed-fi' ? 'uri://ed-fi.org' : 'uri://tpdm.ed-fi.org';
}

function random(site: ValueSite, salt = ''): number {
  return seededNumber(site.seed, `${site.key}${salt}`);
}

function fitLength(text: string, shape: PropertyShape): string {
  const fitted = shape.maxLength === undefined ? text : text.slice(0, shape.maxLength);
  return fitted.padEnd(shape.minLength ?? 0, 'x');
}

/** A readable string unique to its site: a seeded token, then the property name (`k3j9x1ab-FirstName`). */
function stringValue(name: string, shape: PropertyShape, site: ValueSite): string {
  const token = seededToken(site.seed, `${site.key}/${site.ordinal}`, TOKEN_LENGTH);
  return fitLength(`${token}-${name.charAt(0).toUpperCase()}${name.slice(1)}`, shape);
}

/** Namespace-valued strings look like Ed-Fi namespaces, as namespace-based authorization expects. */
export function namespaceValue(project: ProjectNamespace, entityName: string, shape: PropertyShape): string {
  return fitLength(`${namespaceAuthority(project)}/${entityName}`, shape);
}

export function descriptorUri(
  descriptor: string,
  project: ProjectNamespace,
  defaults: readonly DescriptorValue[],
  site: ValueSite,
): string {
  const pick = random(site) + site.ordinal;
  const value = defaults[pick % Math.max(defaults.length, 1)];
  if (value) return `${value.namespace}#${value.codeValue}`;
  return `${namespaceAuthority(project)}/${descriptor}#Code ${pick % 1000}`;
}

function integerValue(shape: PropertyShape, site: ValueSite): number {
  const draw = random(site) + site.ordinal;
  const { minimum, maximum } = shape;
  if (minimum !== undefined && maximum !== undefined) {
    // Near the middle of the range: school years land in 2000–2025, inside the seeded SchoolYearType rows.
    const middle = Math.floor((minimum + maximum) / 2);
    return middle + (draw % (Math.min(25, maximum - middle) + 1));
  }
  if (minimum !== undefined) return minimum + 1 + (draw % 1000);
  return 1 + (draw % (shape.format === 'int64' ? 999_999_999 : 999_999));
}

function decimalValue(shape: PropertyShape, site: ValueSite): number {
  const scale = shape.decimal?.scale ?? 2;
  const low = Math.max(shape.minimum ?? 0, 0);
  const high = Math.min(shape.maximum ?? 1000, low + 100);
  const unitsPerOne = 10 ** scale;
  const steps = Math.floor((high - low) * unitsPerOne);
  return Number((low + (random(site) % (steps + 1)) / unitsPerOne).toFixed(scale));
}

function dateOf(site: ValueSite): string {
  return new Date(FIRST_DATE + ((random(site, 'd') + site.ordinal) % DATE_SPAN_DAYS) * DAY_MS)
    .toISOString()
    .slice(0, 10);
}

function timeOf(site: ValueSite): string {
  return new Date((random(site, 't') % 86_400) * 1000).toISOString().slice(11, 19);
}

/** A non-descriptor, non-namespace scalar. */
export function scalarValue(name: string, shape: PropertyShape, site: ValueSite): string | number | boolean {
  switch (shape.type) {
    case 'boolean':
      return random(site) % 2 === 0;
    case 'integer':
      return integerValue(shape, site);
    case 'number':
      return decimalValue(shape, site);
    default:
      if (shape.format === 'date') return dateOf(site);
      if (shape.format === 'time') return timeOf(site);
      if (shape.format === 'date-time') return `${dateOf(site)}T${timeOf(site)}Z`;
      return stringValue(name, shape, site);
  }
}
