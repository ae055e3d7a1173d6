// What the discovery document says about this server: the ODS API version it implements, its build and data models.
import { readFileSync } from 'node:fs';
import type { ExtensionProject } from '../../model/index.js';

export const API_VERSION = '7.3';
export const API_SUITE = '3';

export interface DataModelInfo {
  readonly name: string;
  readonly version: string;
  readonly informationalVersion: string;
}

export const DATA_MODELS: readonly DataModelInfo[] = [
  { name: 'Ed-Fi', version: '5.2.0', informationalVersion: 'The Ed-Fi Data Model 5.2' },
  { name: 'TPDM', version: '1.1.0', informationalVersion: 'TPDM-Core' },
];

/**
 * The data models a registry serves: Ed-Fi, TPDM, then the optional extensions by name, each as its project names
 * itself (`Sample` `1.0.0`).
 */
export function dataModelsOf(projects: readonly ExtensionProject[]): DataModelInfo[] {
  const optional = projects
    .filter((project) => !DATA_MODELS.some((model) => model.name === project.name))
    .map(({ name, version, informationalVersion }) => ({ name, version, informationalVersion }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [...DATA_MODELS, ...optional];
}

/** The same relative path from src/http/meta and dist/http/meta. */
const PACKAGE_JSON = new URL('../../../package.json', import.meta.url);

/**
 * The ODS reports its assembly version in four parts; ours is this package's `major.minor.patch` plus `.0`
 * (pre-release and build labels dropped), e.g. `0.1.0` → `0.1.0.0`.
 */
export function buildVersion(packageVersion: string): string {
  const [major = '0', minor = '0', patch = '0'] = packageVersion.split(/[-+]/, 1)[0]!.split('.');
  return [major, minor, patch, '0'].map((part) => String(Number.parseInt(part, 10) || 0)).join('.');
}

let build: string | undefined;

export function serverBuild(): string {
  build ??= buildVersion((JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string }).version);
  return build;
}
