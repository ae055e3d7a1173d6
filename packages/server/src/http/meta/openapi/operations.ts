// The path items of one resource: list and upsert on /{namespace}/{endpoint}, read, replace and delete by id.
import type { PropertyShape, ResourceModel } from '../../../model/index.js';
import { scalarSchema } from './component-schemas.js';
import { odsCamelCase, pascalCase } from './names.js';
import { componentRef, type OpenApiReference, type OpenApiSchema } from './schema-types.js';

type Responses = Record<string, unknown>;

const ID_PARAMETER = {
  name: 'id',
  in: 'path',
  description: 'The resource identifier.',
  required: true,
  schema: { type: 'string' },
};

function ifMatchParameter(action: string): OpenApiSchema {
  return {
    name: 'If-Match',
    in: 'header',
    description: `An ETag previously returned; the ${action} is refused (412) if the resource changed since.`,
    schema: { type: 'string' },
  };
}

function standardResponses(...names: [status: string, response: string][]): Responses {
  return Object.fromEntries(names.map(([status, response]) => [status, componentRef('responses', response)]));
}

const READ_ERRORS: [string, string][] = [
  ['304', 'NotModified'],
  ['400', 'BadRequest'],
  ['401', 'Unauthorized'],
  ['403', 'Forbidden'],
  ['404', 'NotFound'],
  ['500', 'Error'],
];

const WRITE_ERRORS: [string, string][] = [
  ['400', 'BadRequest'],
  ['401', 'Unauthorized'],
  ['403', 'Forbidden'],
  ['409', 'Conflict'],
  ['412', 'PreconditionFailed'],
  ['500', 'Error'],
];

/** The leaf shape at a query field's path (`$.a.b`, arrays stepped through), for typing the parameter. */
function shapeAt(root: PropertyShape, path: string): PropertyShape | undefined {
  let shape: PropertyShape | undefined = root;
  for (const segment of path.split('.').slice(1)) {
    const name = segment.replace(/\[\*\]$/, '');
    shape = shape?.properties?.[name];
    if (shape !== undefined && segment.endsWith('[*]')) shape = shape.items;
  }
  return shape;
}

function queryParameters(resource: ResourceModel): OpenApiSchema[] {
  return Object.entries(resource.queryFields).map(([name, paths]) => {
    const leaf = paths[0] === undefined ? undefined : shapeAt(resource.shape, paths[0]);
    const parameter: Record<string, unknown> = {
      name,
      in: 'query',
      schema: leaf === undefined ? { type: 'string' } : scalarSchema(leaf),
    };
    if (leaf?.isIdentity) parameter['x-Ed-Fi-isIdentity'] = true;
    return parameter;
  });
}

function requestBody(resource: ResourceModel, schema: OpenApiReference): OpenApiSchema {
  return {
    description: `The ${odsCamelCase(resource.resourceName)} resource.`,
    content: { 'application/json': { schema } },
    required: true,
  };
}

function okResponse(description: string, schema: unknown): OpenApiSchema {
  return { description, content: { 'application/json': { schema } } };
}

/** The `/{namespace}/{endpoint}` and `/{namespace}/{endpoint}/{id}` path items for a resource's schema. */
export function resourcePaths(resource: ResourceModel, schema: OpenApiReference): Record<string, unknown> {
  const tags = [resource.endpoint];
  const plural = pascalCase(resource.endpoint);
  const singular = resource.resourceName;
  const collectionPath = `/${resource.namespace}/${resource.endpoint}`;
  return {
    [collectionPath]: {
      get: {
        tags,
        summary: 'Lists resources, filtered by the values of any query parameters given.',
        operationId: `get${plural}`,
        parameters: [
          componentRef('parameters', 'offset'),
          componentRef('parameters', 'limit'),
          componentRef('parameters', 'totalCount'),
          ...queryParameters(resource),
        ],
        responses: {
          '200': okResponse('The matching resources.', { type: 'array', items: schema }),
          ...standardResponses(...READ_ERRORS),
        },
      },
      post: {
        tags,
        summary: 'Creates a resource, or replaces the one with the same natural key.',
        operationId: `post${singular}`,
        requestBody: requestBody(resource, schema),
        responses: standardResponses(['200', 'Updated'], ['201', 'Created'], ...WRITE_ERRORS),
      },
    },
    [`${collectionPath}/{id}`]: {
      get: {
        tags,
        summary: 'Reads one resource by its identifier.',
        operationId: `get${plural}ById`,
        parameters: [ID_PARAMETER, componentRef('parameters', 'If-None-Match')],
        responses: { '200': okResponse('The resource.', schema), ...standardResponses(...READ_ERRORS) },
      },
      put: {
        tags,
        summary: 'Replaces a resource by its identifier.',
        operationId: `put${singular}`,
        parameters: [ID_PARAMETER, ifMatchParameter('update')],
        requestBody: requestBody(resource, schema),
        responses: standardResponses(['204', 'Updated'], ['404', 'NotFound'], ...WRITE_ERRORS),
        ...(resource.allowIdentityUpdates ? { 'x-Ed-Fi-isUpdatable': true } : {}),
      },
      delete: {
        tags,
        summary: 'Deletes a resource by its identifier.',
        operationId: `delete${singular}ById`,
        parameters: [ID_PARAMETER, ifMatchParameter('delete')],
        responses: standardResponses(['204', 'Deleted'], ['404', 'NotFound'], ...WRITE_ERRORS),
      },
    },
  };
}
