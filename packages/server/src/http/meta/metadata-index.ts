// The GET {root}/metadata list of OpenAPI documents (contract §1.4), ordered by section then name as the ODS does.
export interface MetadataSection {
  readonly name: string;
  readonly endpointUri: string;
  readonly prefix: string;
}

/** Paths below {root}/metadata/ of the documents this server generates. */
export const OPENAPI_DOCUMENT_PATHS = {
  resources: '/data/v3/resources/swagger.json',
  descriptors: '/data/v3/descriptors/swagger.json',
} as const;

/** Both documents belong to the ODS's "SwaggerUI" section, whose prefix is empty; Descriptors sorts first. */
export function metadataIndex(root: string): MetadataSection[] {
  return [
    { name: 'Descriptors', endpointUri: `${root}/metadata${OPENAPI_DOCUMENT_PATHS.descriptors}`, prefix: '' },
    { name: 'Resources', endpointUri: `${root}/metadata${OPENAPI_DOCUMENT_PATHS.resources}`, prefix: '' },
  ];
}
