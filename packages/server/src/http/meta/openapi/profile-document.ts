// The OpenAPI section of one profile (contract §1.4): for each covered resource, its GET operations with the readable
// schema and its POST and PUT with the writable one, under the profile's media types. Readable and writable schemas
// of one resource are told apart by a suffix on every schema name.
import { profileContentType, profiledResources, type CompiledProfile } from '../../../profiles/index.js';
import { openApiSection, type OpenApiSection } from './openapi-document.js';
import type { OpenApiSchema } from './schema-types.js';

const READ_METHODS = ['get'];
const WRITE_METHODS = ['post', 'put', 'delete'];

/** The JSON value with every schema reference and name suffixed, and JSON content under `mediaType`. */
function relabelled<T>(value: T, suffix: string, mediaType?: string): T {
  let text = JSON.stringify(value).replace(/("#\/components\/schemas\/[^"]+)"/g, `$1${suffix}"`);
  if (mediaType !== undefined) text = text.replaceAll('"application/json"', JSON.stringify(mediaType));
  return JSON.parse(text) as T;
}

export function profileOpenApiSection(profile: CompiledProfile): OpenApiSection {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, OpenApiSchema> = {};
  const tags = new Set<string>();
  for (const { resource, usage, shown } of profiledResources(profile)) {
    const suffix = usage === 'readable' ? '_Readable' : '_Writable';
    const section = openApiSection([shown]);
    const mediaType = profileContentType(resource.resourceName, profile.name, usage);
    const methods = usage === 'readable' ? READ_METHODS : WRITE_METHODS;
    for (const [path, item] of Object.entries(section.paths)) {
      const operations = Object.entries(item as Record<string, unknown>).filter(([method]) => methods.includes(method));
      paths[path] = { ...paths[path], ...relabelled(Object.fromEntries(operations), suffix, mediaType) };
    }
    for (const [name, schema] of Object.entries(section.schemas))
      schemas[`${name}${suffix}`] = relabelled(schema, suffix);
    section.tags.forEach((tag) => tags.add(tag.name));
  }
  return { paths, schemas, tags: [...tags].sort().map((name) => ({ name })) };
}
