// The subset of the OpenAPI 3.1 document model the generator produces.

export interface SchemaObject {
  readonly type?: 'string' | 'integer' | 'object';
  readonly pattern?: string;
  readonly properties?: Readonly<Record<string, SchemaObject>>;
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
}

export interface ReferenceObject {
  readonly $ref: string;
}

export interface ParameterObject {
  readonly name: string;
  readonly in: 'path';
  readonly required: true;
  readonly description?: string;
  readonly schema: SchemaObject;
}

export interface MediaTypeObject {
  readonly schema: SchemaObject | ReferenceObject;
}

export interface ResponseObject {
  readonly description: string;
  readonly content?: Readonly<Record<string, MediaTypeObject>>;
}

export interface RequestBodyObject {
  readonly content: Readonly<Record<string, MediaTypeObject>>;
}

/** Scheme name → required scopes; an empty object means "no authentication". */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

export interface OperationObject {
  readonly tags?: readonly string[];
  readonly summary?: string;
  readonly operationId: string;
  readonly parameters?: readonly ParameterObject[];
  readonly requestBody?: RequestBodyObject;
  readonly responses: Readonly<Record<string, ResponseObject | ReferenceObject>>;
  /** Alternative requirements: satisfying any one of them is enough. */
  readonly security?: readonly SecurityRequirement[];
}

export type OpenApiMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch';

export type PathItemObject = { readonly [M in OpenApiMethod]?: OperationObject };

export type SecuritySchemeObject =
  | { readonly type: 'apiKey'; readonly in: 'header'; readonly name: string }
  | { readonly type: 'http'; readonly scheme: 'basic' | 'bearer'; readonly bearerFormat?: string }
  | {
      readonly type: 'oauth2';
      readonly flows: {
        readonly clientCredentials: { readonly tokenUrl: string; readonly scopes: Readonly<Record<string, string>> };
      };
    };

export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly description?: string; readonly version: string };
  readonly servers?: readonly { readonly url: string }[];
  readonly paths: Readonly<Record<string, PathItemObject>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, SchemaObject>>;
    readonly responses: Readonly<Record<string, ResponseObject>>;
    readonly securitySchemes?: Readonly<Record<string, SecuritySchemeObject>>;
  };
}
