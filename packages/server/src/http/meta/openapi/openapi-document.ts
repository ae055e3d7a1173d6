// OpenAPI 3.0 documents for a set of resources: the URL-free part is built once, the URLs are added per {root}.
import { pascalCase } from './names.js';
import type { ResourceModel } from '../../../model/index.js';
import { ComponentSchemas } from './component-schemas.js';
import { resourcePaths } from './operations.js';
import type { OpenApiSchema } from './schema-types.js';

/** Everything of a document that does not depend on the request's root URL. */
export interface OpenApiSection {
  readonly paths: Record<string, unknown>;
  readonly schemas: Record<string, OpenApiSchema>;
  readonly tags: readonly { readonly name: string }[];
}

export interface OpenApiDocument {
  readonly openapi: string;
  readonly info: OpenApiSchema;
  readonly servers: readonly { readonly url: string }[];
  readonly paths: Record<string, unknown>;
  readonly components: OpenApiSchema;
  readonly security: readonly Record<string, readonly string[]>[];
  readonly tags: readonly { readonly name: string }[];
}

const OAUTH_SCHEME = 'oauth2_client_credentials';
const BEARER_SCHEME = 'bearer';

const PARAMETERS = {
  offset: {
    name: 'offset',
    in: 'query',
    description: 'How many items to skip before the first one returned.',
    schema: { type: 'integer', format: 'int32', default: 0, minimum: 0 },
  },
  limit: {
    name: 'limit',
    in: 'query',
    description: 'The most items to return.',
    schema: { type: 'integer', format: 'int32', default: 500, minimum: 0, maximum: 500 },
  },
  totalCount: {
    name: 'totalCount',
    in: 'query',
    description: "When true, the number of matching items is returned in the 'Total-Count' response header.",
    schema: { type: 'boolean', default: false },
  },
  'If-None-Match': {
    name: 'If-None-Match',
    in: 'header',
    description: 'An ETag previously returned; 304 is answered when the resource has not changed since.',
    schema: { type: 'string' },
  },
};

function described(description: string): OpenApiSchema {
  return { description };
}

function withProblemBody(description: string): OpenApiSchema {
  return { description, content: { 'application/json': {} } };
}

const RESPONSES = {
  Created: described('Created. The ETag header holds the new version and the Location header the resource URL.'),
  Updated: described('Updated. The ETag header holds the new version.'),
  Deleted: described('Deleted.'),
  NotModified: described('Not modified since the ETag given in If-None-Match.'),
  BadRequest: withProblemBody('The request was invalid; the problem details say why.'),
  Unauthorized: described('The bearer token is missing, unknown or expired.'),
  Forbidden: described('The client is not authorized for this request.'),
  NotFound: withProblemBody('The resource was not found.'),
  Conflict: withProblemBody('The request conflicts with existing data; the problem details say how.'),
  PreconditionFailed: described('The resource changed since the ETag given in If-Match.'),
  Error: withProblemBody('An unexpected server error.'),
};

export function openApiSection(resources: readonly ResourceModel[]): OpenApiSection {
  const components = new ComponentSchemas();
  const paths: Record<string, unknown> = {};
  const endpoints = new Set<string>();
  for (const resource of resources) {
    const items = resourcePaths(resource, components.addResource(resource));
    // A resource named like one of another namespace (Homograph's `students`) keeps operation ids unique.
    if (endpoints.has(resource.endpoint)) prefixOperationIds(items, pascalCase(resource.namespace));
    endpoints.add(resource.endpoint);
    Object.assign(paths, items);
  }
  const tags = [...endpoints].sort();
  return { paths, schemas: components.schemas, tags: tags.map((name) => ({ name })) };
}

function prefixOperationIds(pathItems: Record<string, unknown>, prefix: string): void {
  for (const item of Object.values(pathItems) as Record<string, { operationId?: string }>[]) {
    for (const operation of Object.values(item)) {
      if (operation.operationId) operation.operationId = operation.operationId.replace(/^[a-z]+/, `$&${prefix}`);
    }
  }
}

export function openApiDocument(section: OpenApiSection, root: string): OpenApiDocument {
  return {
    openapi: '3.0.1',
    info: {
      title: 'Ed-Fi Operational Data Store API',
      description: 'Ed-Fi Data Standard 5.2 and TPDM 1.1 resources, compatible with the Ed-Fi ODS/API 7.3.',
      version: '3',
    },
    servers: [{ url: `${root}/data/v3` }],
    paths: section.paths,
    components: {
      schemas: section.schemas,
      responses: RESPONSES,
      parameters: PARAMETERS,
      securitySchemes: {
        [OAUTH_SCHEME]: {
          type: 'oauth2',
          description: 'OAuth 2.0 client credentials: exchange a key and secret for a bearer token.',
          flows: { clientCredentials: { tokenUrl: `${root}/oauth/token`, scopes: {} } },
        },
        [BEARER_SCHEME]: { type: 'http', scheme: 'bearer', description: 'A token from the token URL.' },
      },
    },
    security: [{ [OAUTH_SCHEME]: [] }, { [BEARER_SCHEME]: [] }],
    tags: section.tags,
  };
}
