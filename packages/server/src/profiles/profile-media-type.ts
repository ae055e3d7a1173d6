// Profile media types (contract §9.1): `application/vnd.ed-fi.{resource}.{profile}.{readable|writable}+json`.
import type { ContentUsage } from './definition.js';
import { profileProblems, type ProfileHeader } from './profile-problems.js';

const PREFIX = 'application/vnd.ed-fi.';
const SUFFIX = '+json';

export interface ProfileMediaType {
  /** Lower-case singular resource name, e.g. `student`. */
  readonly resource: string;
  readonly profile: string;
  readonly usage: ContentUsage;
}

export function profileContentType(resourceName: string, profileName: string, usage: ContentUsage): string {
  return `${PREFIX}${resourceName.toLowerCase()}.${profileName.toLowerCase()}.${usage}${SUFFIX}`;
}

function mediaTypesOf(value: string, header: ProfileHeader): string[] {
  const values = header === 'Accept' ? value.split(',') : [value];
  return values.map((each) => each.split(';')[0]!.trim().toLowerCase());
}

/** The profile media type the header names; undefined when it names none, a 400 when it names one badly. */
export function profileMediaTypeOf(value: string | undefined, header: ProfileHeader): ProfileMediaType | undefined {
  if (value === undefined) return undefined;
  const mediaType = mediaTypesOf(value, header).find((each) => each.startsWith(PREFIX));
  if (mediaType === undefined) return undefined;
  const facets = mediaType.slice(PREFIX.length).split('.');
  const last = facets[facets.length - 1]!;
  if (facets.length !== 3 || facets.some((facet) => facet === '') || !last.endsWith(SUFFIX))
    throw profileProblems.malformed(header);
  const usage = last.slice(0, -SUFFIX.length);
  if (usage !== 'readable' && usage !== 'writable') throw profileProblems.unknownUsage(header);
  return { resource: facets[0]!, profile: facets[1]!, usage };
}
