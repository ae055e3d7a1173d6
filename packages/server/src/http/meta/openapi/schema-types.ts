// The slice of OpenAPI 3.0 object types the generated documents use.
export type OpenApiSchema = { readonly [keyword: string]: unknown };

export interface OpenApiReference {
  readonly $ref: string;
}

export function componentRef(section: 'schemas' | 'parameters' | 'responses', name: string): OpenApiReference {
  return { $ref: `#/components/${section}/${name}` };
}
