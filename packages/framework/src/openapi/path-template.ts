// Converts a framework path template ('/users/{int:id}') into an OpenAPI path ('/users/{id}') and its path parameters.

import { ConfigurationError } from '../errors.js';
import type { ParameterDeclaration } from '../types.js';
import type { RouteInfo } from '../routes/route-definition.js';
import type { ParameterObject, SchemaObject } from './document.js';

export const ULID_PATTERN = '^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$';

const PLACEHOLDER = /\{(?:([^{}:]+):)?([^{}:]+)\}/g;

function schemaForType(type: string | undefined, route: RouteInfo): SchemaObject {
  if (type === undefined) return { type: 'string' };
  if (type === 'int') return { type: 'integer' };
  if (type === 'ulid') return { type: 'string', pattern: ULID_PATTERN };
  throw new ConfigurationError(`Unknown path parameter type "${type}" in ${route.path} (${route.source}).`);
}

/** A declaration's type and pattern win; the template's pattern survives only when the types agree. */
function mergeSchema(derived: SchemaObject, declared: ParameterDeclaration['schema']): SchemaObject {
  const pattern = declared.pattern ?? (declared.type === derived.type ? derived.pattern : undefined);
  return pattern === undefined ? { type: declared.type } : { type: declared.type, pattern };
}

export interface OpenApiPath {
  readonly path: string;
  readonly parameters: readonly ParameterObject[];
}

export function toOpenApiPath(route: RouteInfo): OpenApiPath {
  const parameters: ParameterObject[] = [];
  const path = route.path.replace(PLACEHOLDER, (_match, type: string | undefined, name: string) => {
    const declaration = route.parameters.find((candidate) => candidate.name === name);
    const derived = schemaForType(type, route);
    const schema = declaration === undefined ? derived : mergeSchema(derived, declaration.schema);
    const description = declaration?.description;
    parameters.push(
      description === undefined
        ? { name, in: 'path', required: true, schema }
        : { name, in: 'path', required: true, description, schema },
    );
    return `{${name}}`;
  });
  const undeclared = route.parameters.find((declaration) => !parameters.some((p) => p.name === declaration.name));
  if (undeclared !== undefined) {
    throw new ConfigurationError(
      `Parameter "${undeclared.name}" is declared for ${route.method} ${route.path} (${route.source}) but is not in the path.`,
    );
  }
  return { path, parameters };
}
