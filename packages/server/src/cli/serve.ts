// `edfi-api serve`: one process, or a cluster primary that prepares the store and forks workers sharing the store;
// one store (`--store`) or the ODS instances of a file (`--instances`).
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import type { AdminCredentials } from '../http/admin/admin-credentials.js';
import { createEdFiApps, type EdFiAppOptions } from '../http/app.js';
import { DOCS_PATH, normalizeBasePath } from '../http/meta/index.js';
import {
  closeInstanceStores,
  openInstances,
  openInstanceStores,
  readInstancesFile,
  type StoreSetup,
} from '../instances/index.js';
import { registryForStore } from '../setup/served-extensions.js';
import { prepareFirstStart, type FirstStart, type SeedMode } from '../setup/first-start.js';
import { openStoreCreatingFolder } from '../setup/store-location.js';
import { listen, type Listener, type TlsFiles } from './http-listener.js';
import type { JsonLogger } from './json-log.js';
import { DEFAULT_ADMIN_HOST, type NetworkOptions } from './network-options.js';
import { sandboxBanner } from './sandbox-banner.js';
import { stopOnSignals } from './shutdown.js';

export interface ServeOptions extends Partial<NetworkOptions> {
  readonly port: number;
  readonly basePath: string;
  /** Store spec, e.g. `sqlite:./data/edfi-api.sqlite`. */
  readonly store: string;
  readonly seed: SeedMode;
  /** Optional extensions to serve (`--extensions sample,homograph`); default: those the store records. */
  readonly extensions?: readonly string[];
  /** Upgrade an outdated store schema before serving (a new database is always set up). */
  readonly migrate?: boolean;
  /** Education organizations of the sandbox client a new store gets. */
  readonly sandboxEdorg: readonly number[];
  readonly tlsCert?: string;
  readonly tlsKey?: string;
  readonly workers: number;
  /** A file of ODS instances (tenants, context routes), each with its own store; `store` is then unused. */
  readonly instances?: string;
  /** Seconds a node trusts a token it found: the longest a revocation on another node takes to reach this one. */
  readonly tokenCacheTtl?: number;
  /** The ODS `OwnershipBasedAuthorization` feature: enforce OwnershipBased strategies (off by default, as in the ODS). */
  readonly ownershipBasedAuthorization?: boolean;
  /** The admin API's Basic credential; the admin API is off without it. */
  readonly adminKey?: string;
  readonly adminSecret?: string;
  /** Serve the documentation page at `{base}/docs` (`--no-docs` turns it off). */
  readonly docs: boolean;
  /** `off`: no `Use-Snapshot` reads, answered with the ODS's 404 (its default without a snapshot database). */
  readonly snapshots?: 'on' | 'off';
}

export interface ServeOutput {
  readonly logger: JsonLogger;
  /** Human-readable notices (the first-start banner), kept off the JSON log stream. */
  readonly notice: (text: string) => void;
}

function tlsFilesOf(options: ServeOptions): TlsFiles | undefined {
  if (options.tlsCert === undefined && options.tlsKey === undefined) return undefined;
  if (options.tlsCert === undefined || options.tlsKey === undefined) {
    throw new Error('HTTPS needs both --tls-cert and --tls-key.');
  }
  return { cert: readFileSync(options.tlsCert), key: readFileSync(options.tlsKey) };
}

function adminCredentialsOf(options: ServeOptions): AdminCredentials | undefined {
  const { adminKey: key, adminSecret: secret } = options;
  if (key === undefined && secret === undefined) return undefined;
  if (key === undefined || secret === undefined || key.trim() === '' || secret.trim() === '') {
    throw new Error(
      'The admin API needs both --admin-key and --admin-secret (or EDFI_ADMIN_KEY and EDFI_ADMIN_SECRET).',
    );
  }
  return { key, secret };
}

/** Instances get no sandbox client: their clients are created per instance (`clients create --instance`). */
function instanceStoreSetup(options: ServeOptions): StoreSetup {
  const snapshots = options.snapshots === 'off' ? { maxSnapshots: 0 } : {};
  return cluster.isPrimary ? { migrate: options.migrate, seed: options.seed, ...snapshots } : snapshots;
}

function baseUrl(scheme: string, port: number, basePath: string): string {
  return `${scheme}://localhost:${port}${normalizeBasePath(basePath)}`;
}

/** Where the documentation page is, when it is served. */
function docsUrlOf(options: ServeOptions, url: string): string | undefined {
  return options.docs ? `${url}${DOCS_PATH}` : undefined;
}

function noticeDocs(output: ServeOutput, docsUrl: string | undefined): void {
  if (docsUrl !== undefined) output.notice(`API documentation (try requests in the browser): ${docsUrl}`);
}

/** Opens the store, seeds it on first start and closes it again: a cluster primary serves no requests. */
async function prepareStore(options: ServeOptions): Promise<FirstStart | undefined> {
  if (options.instances !== undefined) {
    await closeInstanceStores(
      await openInstanceStores(readInstancesFile(options.instances), instanceStoreSetup(options)),
    );
    return undefined;
  }
  const registry = await registryForStore(options.store, options.extensions);
  const store = await openStoreCreatingFolder(options.store, registry, { migrate: options.migrate });
  try {
    return await prepareFirstStart(store, registry, options.seed, options.sandboxEdorg);
  } finally {
    await store.close();
  }
}

interface Served {
  readonly handler: RequestListener;
  /** The admin API on a listener of its own (`--admin-port`). */
  readonly adminHandler?: RequestListener;
  readonly firstStart?: FirstStart;
  close(): Promise<void>;
}

/** The API over the one store of `--store`; only a process that is not a cluster worker prepares the store. */
async function serveStore(options: ServeOptions, app: Omit<EdFiAppOptions, 'store'>): Promise<Served> {
  // Workers serve what the primary recorded in the store.
  const registry = await registryForStore(options.store, cluster.isWorker ? undefined : options.extensions);
  // A cluster's primary has prepared the store before forking, so workers never migrate.
  const store = await openStoreCreatingFolder(options.store, registry, {
    migrate: options.migrate && cluster.isPrimary,
    ...(options.snapshots === 'off' ? { maxSnapshots: 0 } : {}),
  });
  const firstStart = cluster.isWorker
    ? undefined
    : await prepareFirstStart(store, registry, options.seed, options.sandboxEdorg);
  const apps = await createEdFiApps({ ...app, store, registry }, options.adminPort !== undefined);
  const adminHandler = apps.admin?.handler;
  return {
    handler: apps.api.handler,
    ...(adminHandler ? { adminHandler } : {}),
    firstStart,
    close: () => store.close(),
  };
}

/** Serves requests in this process. */
async function serveHere(options: ServeOptions, output: ServeOutput): Promise<void> {
  const started = performance.now();
  const { logger } = output;
  const tls = tlsFilesOf(options);
  const admin = adminCredentialsOf(options);
  const app = {
    basePath: options.basePath,
    logger,
    onResponse: logger.request,
    admin,
    docs: options.docs,
    tokenCacheTtlSeconds: options.tokenCacheTtl,
    ownershipBasedAuthorization: options.ownershipBasedAuthorization === true,
    trustProxy: options.trustProxy,
  };
  const served: Served =
    options.instances === undefined
      ? await serveStore(options, app)
      : await openInstances(readInstancesFile(options.instances), instanceStoreSetup(options), app);
  let listener: Listener;
  let adminListener: Listener | undefined;
  try {
    listener = await listen(served.handler, { port: options.port, host: options.host, tls });
    adminListener =
      served.adminHandler &&
      (await listen(served.adminHandler, {
        port: options.adminPort ?? 0,
        host: options.adminHost ?? DEFAULT_ADMIN_HOST,
        tls,
      }));
  } catch (error) {
    // The new store's sandbox client exists now, and its secret is shown this once: a taken port must not lose it.
    if (served.firstStart !== undefined) {
      output.notice(sandboxBanner(baseUrl(tls ? 'https' : 'http', options.port, options.basePath), served.firstStart));
    }
    await served.close();
    throw error;
  }
  stopOnSignals(async () => {
    await Promise.all([listener.close(), adminListener?.close()]);
    await served.close();
  }, logger);
  const url = baseUrl(listener.scheme, listener.port, options.basePath);
  const startupMs = Math.round(performance.now() - started);
  const docsUrl = docsUrlOf(options, url);
  const adminApi = adminListener
    ? { port: adminListener.port, host: options.adminHost ?? DEFAULT_ADMIN_HOST }
    : admin !== undefined;
  const host = options.host ?? 'all';
  logger.info('listening', { url, port: listener.port, host, startupMs, adminApi, docs: docsUrl });
  if (cluster.isPrimary) noticeDocs(output, docsUrl);
  if (served.firstStart !== undefined) output.notice(sandboxBanner(url, served.firstStart));
}

async function serveWithWorkers(options: ServeOptions, output: ServeOutput): Promise<void> {
  const { logger } = output;
  // Reading the files and checking the admin credential here reports a problem once, before any worker starts.
  const scheme = tlsFilesOf(options) === undefined ? 'http' : 'https';
  adminCredentialsOf(options);
  const firstStart = await prepareStore(options);
  const listening = new Set<number>();
  let stopping = false;
  let bannerShown = false;
  const showBanner = (url: string): void => {
    if (firstStart === undefined || bannerShown) return;
    bannerShown = true;
    output.notice(sandboxBanner(url, firstStart));
  };
  cluster.once('listening', (_worker, address) => {
    const url = baseUrl(scheme, address.port, options.basePath);
    noticeDocs(output, docsUrlOf(options, url));
    showBanner(url);
  });
  cluster.on('listening', (worker) => listening.add(worker.id));
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    // A worker that never got to listen (port taken, bad store) would fail again: stop instead of looping.
    if (!listening.delete(worker.id)) {
      logger.error('worker failed to start; stopping', { worker: worker.process.pid, code, signal });
      // As in one process: the new store's sandbox credentials are shown even when no worker could listen.
      showBanner(baseUrl(scheme, options.port, options.basePath));
      process.exitCode = 1;
      process.kill(process.pid, 'SIGTERM');
      return;
    }
    logger.error('worker exited; starting a replacement', { worker: worker.process.pid, code, signal });
    cluster.fork();
  });
  for (let index = 0; index < options.workers; index++) cluster.fork();
  stopOnSignals(async () => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            worker.once('exit', () => resolve());
            worker.process.kill('SIGTERM');
          }),
      ),
    );
  }, logger);
}

export function serve(options: ServeOptions, output: ServeOutput): Promise<void> {
  return cluster.isPrimary && options.workers > 1 ? serveWithWorkers(options, output) : serveHere(options, output);
}
