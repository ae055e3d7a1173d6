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

/** A further document of the list (a composite category's), with the ODS section it sorts in. */
export interface MetadataDocument {
  readonly section: string;
  readonly name: string;
  /** Below {root}/metadata. */
  readonly path: string;
  readonly prefix: string;
}

/** Both core documents belong to the ODS's "SwaggerUI" section, whose prefix is empty; Descriptors sorts first. */
const CORE_DOCUMENTS: readonly MetadataDocument[] = [
  { section: 'SwaggerUI', name: 'Descriptors', path: OPENAPI_DOCUMENT_PATHS.descriptors, prefix: '' },
  { section: 'SwaggerUI', name: 'Resources', path: OPENAPI_DOCUMENT_PATHS.resources, prefix: '' },
];

function bySectionThenName(a: MetadataDocument, b: MetadataDocument): number {
  return a.section.localeCompare(b.section, 'en') || a.name.localeCompare(b.name, 'en');
}

export function metadataIndex(root: string, documents: readonly MetadataDocument[] = []): MetadataSection[] {
  return [...CORE_DOCUMENTS, ...documents]
    .sort(bySectionThenName)
    .map(({ name, path, prefix }) => ({ name, endpointUri: `${root}/metadata${path}`, prefix }));
}
