// The `--instances <file>` configuration (JSON, or YAML for any other extension): the ODS instances one server routes
// to, each with its own store spec, found by tenant (`/{tenant}/…`, when any instance names one) and by the values of
// the context route (`/{schoolYear}/…`, when `contextRoute` is set).
//
//   contextRoute: "{schoolYearFromRoute:range(2000,2099)}"
//   instances:
//     - { name: district-a-2024, tenant: district-a, context: { schoolYearFromRoute: 2024 }, store: "postgres://…" }
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { parseContextRoute, type ContextRoute } from './context-route.js';

export interface InstanceDefinition {
  /** Unique; how the command line and the logs name the instance. */
  readonly name: string;
  /** Present on every instance when the server is multi-tenant, on none otherwise. */
  readonly tenant?: string;
  /** The context values, in the order of the context route's segments (empty without a context route). */
  readonly context: readonly string[];
  readonly store: string;
}

export interface InstancesConfig {
  readonly contextRoute?: ContextRoute;
  readonly multiTenant: boolean;
  readonly instances: readonly InstanceDefinition[];
}

/** The ODS's tenant identifier pattern (`{tenantIdentifier:regex(^[A-Za-z0-9-]+$)}`). */
const TENANT = /^[A-Za-z0-9-]+$/;

type Fields = Readonly<Record<string, unknown>>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, what: string): string {
  if (typeof value === 'string' && value.trim() !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new Error(`${what} must be a non-empty string.`);
}

function contextOf(fields: Fields, route: ContextRoute | undefined, where: string): string[] {
  if (route === undefined) {
    if (fields.context !== undefined) throw new Error(`${where} has a context but the file sets no contextRoute.`);
    return [];
  }
  const context = fields.context;
  if (!isFields(context)) throw new Error(`${where} needs a context with ${route.template}'s keys.`);
  const extra = Object.keys(context).filter((key) => !route.segments.some((segment) => segment.key === key));
  if (extra.length > 0) throw new Error(`${where} has context keys the contextRoute lacks: ${extra.join(', ')}.`);
  return route.segments.map((segment) => {
    const value = text(context[segment.key], `${where}'s context value '${segment.key}'`);
    if (!segment.accepts(value) || value.includes('/')) {
      throw new Error(`${where}'s context value '${segment.key}' (${value}) does not fit ${route.template}.`);
    }
    return value;
  });
}

function instanceOf(value: unknown, index: number, route: ContextRoute | undefined): InstanceDefinition {
  const where = `Instance ${index + 1}`;
  if (!isFields(value)) throw new Error(`${where} must be an object with name, store (and tenant, context).`);
  const name = text(value.name, `${where}'s name`);
  const tenant = value.tenant === undefined ? undefined : text(value.tenant, `${where}'s tenant`);
  if (tenant !== undefined && !TENANT.test(tenant)) {
    throw new Error(`${where}'s tenant '${tenant}' may only have letters, digits and '-'.`);
  }
  return {
    name,
    tenant,
    context: contextOf(value, route, `Instance '${name}'`),
    store: text(value.store, `${where}'s store`),
  };
}

/** Where an instance is mounted below the base path: `/{tenant}/{context values…}` (empty for a lone instance). */
export function instancePath(instance: Pick<InstanceDefinition, 'tenant' | 'context'>): string {
  return [instance.tenant, ...instance.context]
    .filter((part) => part !== undefined)
    .map((part) => `/${part}`)
    .join('');
}

function checkUnique(instances: readonly InstanceDefinition[]): void {
  const names = new Set<string>();
  const paths = new Set<string>();
  for (const instance of instances) {
    if (names.has(instance.name)) throw new Error(`Two instances are named '${instance.name}'.`);
    const where = instancePath(instance).toLowerCase();
    if (paths.has(where)) throw new Error(`Instance '${instance.name}' has the tenant and context of another one.`);
    names.add(instance.name);
    paths.add(where);
  }
}

export function parseInstancesConfig(document: unknown): InstancesConfig {
  if (!isFields(document) || !Array.isArray(document.instances) || document.instances.length === 0) {
    throw new Error('The instances file needs a non-empty list `instances`.');
  }
  const contextRoute =
    document.contextRoute === undefined ? undefined : parseContextRoute(text(document.contextRoute, 'contextRoute'));
  const instances = document.instances.map((value, index) => instanceOf(value, index, contextRoute));
  const tenants = instances.filter((instance) => instance.tenant !== undefined).length;
  if (tenants !== 0 && tenants !== instances.length) {
    throw new Error('Either every instance names a tenant (multi-tenancy) or none does.');
  }
  checkUnique(instances);
  return { contextRoute, multiTenant: tenants > 0, instances };
}

export function readInstancesFile(file: string): InstancesConfig {
  const content = readFileSync(file, 'utf8');
  try {
    return parseInstancesConfig(
      path.extname(file).toLowerCase() === '.json' ? JSON.parse(content) : parseYaml(content),
    );
  } catch (error) {
    throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

export function instanceNamed(config: InstancesConfig, name: string): InstanceDefinition {
  const instance = config.instances.find((candidate) => candidate.name === name);
  if (instance === undefined) {
    throw new Error(`No instance is named '${name}'; the file has ${config.instances.map((i) => i.name).join(', ')}.`);
  }
  return instance;
}
