// The discovery ("version") document of GET {root}/ (contract §1.2), property and key order as the ODS writes them.
import { API_SUITE, API_VERSION, DATA_MODELS, serverBuild, type DataModelInfo } from './api-version.js';

export interface DiscoveryDocument {
  readonly version: string;
  readonly informationalVersion: string;
  readonly suite: string;
  readonly build: string;
  readonly dataModels: readonly DataModelInfo[];
  readonly urls: Readonly<Record<string, string>>;
}

/**
 * The URLs of the ODS's default feature set that are served, in its key order, then our documentation page's when it
 * is served.
 */
export function discoveryDocument(
  root: string,
  docsPath?: string,
  dataModels: readonly DataModelInfo[] = DATA_MODELS,
): DiscoveryDocument {
  return {
    version: API_VERSION,
    informationalVersion: API_VERSION,
    suite: API_SUITE,
    build: serverBuild(),
    dataModels,
    urls: {
      dependencies: `${root}/metadata/data/v3/dependencies`,
      openApiMetadata: `${root}/metadata/`,
      oauth: `${root}/oauth/token`,
      oauthTokenIntrospection: `${root}/oauth/token_info`,
      dataManagementApi: `${root}/data/v3/`,
      xsdMetadata: `${root}/metadata/xsd`,
      changeQueries: `${root}/changeQueries/v1/`,
      composites: `${root}/composites/v1/`,
      ...(docsPath === undefined ? {} : { apiDocumentation: `${root}${docsPath}` }),
    },
  };
}
