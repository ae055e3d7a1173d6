// Routes each request to the app of the instance its path names (`{base}/{tenant}/{context values…}/…`, compared
// ignoring case); anything else goes to the instances' index (discovery, or a 404 problem).
import type { RequestListener } from 'node:http';
import type { BindingCheck } from './instance-binding.js';
import { instancePath, type InstancesConfig } from './instances-file.js';

export interface InstanceHandler {
  readonly handler: RequestListener;
  readonly isUnbound: BindingCheck;
}

export interface InstanceRoutes {
  readonly config: InstancesConfig;
  /** Normalised: leading slash, no trailing slash. */
  readonly basePath: string;
  /** The app of each instance, by name, and how it tells a token of an instance the client is not bound to. */
  readonly handlers: ReadonlyMap<string, InstanceHandler>;
  readonly index: RequestListener;
}

/** The path segments after the base path, or undefined when the path is not under it. */
function segmentsAfter(basePath: string, url: string): string[] | undefined {
  const queryStart = url.indexOf('?');
  const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
  if (pathname.slice(0, basePath.length).toLowerCase() !== basePath.toLowerCase()) return undefined;
  const rest = pathname.slice(basePath.length);
  if (rest !== '' && !rest.startsWith('/')) return undefined;
  return rest.split('/').slice(1);
}

/** `/{tenant}/{context values…}` of a request, lower-cased; undefined when its path is too short or elsewhere. */
function instanceKeyOf(url: string, basePath: string, depth: number): string | undefined {
  const segments = segmentsAfter(basePath, url);
  if (segments === undefined || segments.length < depth) return undefined;
  return segments
    .slice(0, depth)
    .map((segment) => `/${segment.toLowerCase()}`)
    .join('');
}

export function instanceRouter(routes: InstanceRoutes): RequestListener {
  const { config, basePath, index } = routes;
  const depth = (config.multiTenant ? 1 : 0) + (config.contextRoute?.segments.length ?? 0);
  const byPath = new Map<string, InstanceHandler>();
  for (const instance of config.instances) {
    const handler = routes.handlers.get(instance.name);
    if (handler !== undefined) byPath.set(instancePath(instance).toLowerCase(), handler);
  }
  return (req, res) => {
    const key = instanceKeyOf(req.url ?? '/', basePath, depth);
    const instance = key === undefined ? undefined : byPath.get(key);
    if (instance === undefined) return index(req, res);
    const unbound = instance.isUnbound(req);
    if (unbound === false) return instance.handler(req, res);
    // A token of another instance of the tenant: the index answers 404, as for a route no instance matches.
    void Promise.resolve(unbound).then(
      (isUnbound) => (isUnbound ? index : instance.handler)(req, res),
      () => instance.handler(req, res),
    );
  };
}
