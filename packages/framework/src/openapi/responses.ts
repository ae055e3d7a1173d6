// Success and error responses of an operation; errors share the framework's envelope `{"error":{"code","message"}}`.

import type { ReferenceObject, ResponseObject, SchemaObject } from './document.js';

const ERROR_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' } },
    },
  },
};

function errorResponse(description: string): ResponseObject {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
}

export const sharedSchemas: Readonly<Record<string, SchemaObject>> = { Error: ERROR_SCHEMA };

export const sharedResponses: Readonly<Record<string, ResponseObject>> = {
  InvalidInput: errorResponse('The request body or a parameter is invalid (`invalid_input`).'),
  Unauthorized: errorResponse('No accepted credentials were presented (`unauthorized`).'),
  Forbidden: errorResponse('The credentials lack a required scope (`forbidden`).'),
  NotFound: errorResponse('The resource does not exist (`not_found`).'),
};

function ref(name: keyof typeof sharedResponses): ReferenceObject {
  return { $ref: `#/components/responses/${name}` };
}

export interface ResponseNeeds {
  readonly takesBody: boolean;
  readonly secured: boolean;
  readonly scoped: boolean;
}

/** Status codes in ascending order so the output is stable. */
export function operationResponses(needs: ResponseNeeds): Readonly<Record<string, ResponseObject | ReferenceObject>> {
  return {
    '200': { description: 'Success.', content: { 'application/json': { schema: {} } } },
    ...(needs.takesBody && { '400': ref('InvalidInput') }),
    ...(needs.secured && { '401': ref('Unauthorized') }),
    ...(needs.scoped && { '403': ref('Forbidden') }),
    '404': ref('NotFound'),
  };
}
