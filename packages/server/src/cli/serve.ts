// `edfi-api serve`: one process, or a cluster primary that prepares the store and forks workers sharing the SQLite file.
import cluster from 'node:cluster';
import { readFileSync } from 'node:fs';
import type { AdminCredentials } from '../http/admin/admin-credentials.js';
import { createEdFiApps } from '../http/app.js';
import { normalizeBasePath } from '../http/meta/index.js';
import { getModelRegistry } from '../model/index.js';
import { prepareFirstStart, type FirstStart, type SeedMode } from '../setup/first-start.js';
import { openStoreCreatingFolder } from '../setup/store-location.js';
import { listen, type TlsFiles } from './http-listener.js';
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
  /** Upgrade an outdated store schema before serving (a new database is always set up). */
  readonly migrate?: boolean;
  /** Education organizations of the sandbox client a new store gets. */
  readonly sandboxEdorg: readonly number[];
  readonly tlsCert?: string;
  readonly tlsKey?: string;
  readonly workers: number;
  /** The admin API's Basic credential; the admin API is off without it. */
  readonly adminKey?: string;
  readonly adminSecret?: string;
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

function baseUrl(scheme: string, port: number, basePath: string): string {
  return `${scheme}://localhost:${port}${normalizeBasePath(basePath)}`;
}

/** Opens the store, seeds it on first start and closes it again: a cluster primary serves no requests. */
async function prepareStore(options: ServeOptions): Promise<FirstStart | undefined> {
  const store = await openStoreCreatingFolder(options.store, undefined, { migrate: options.migrate });
  try {
    return await prepareFirstStart(store, getModelRegistry(), options.seed, options.sandboxEdorg);
  } finally {
    await store.close();
  }
}

/** Serves requests in this process; only a process that is not a cluster worker prepares the store. */
async function serveHere(options: ServeOptions, output: ServeOutput): Promise<void> {
  const started = performance.now();
  const { logger } = output;
  const tls = tlsFilesOf(options);
  const admin = adminCredentialsOf(options);
  const registry = getModelRegistry();
  // A cluster's primary has prepared the store before forking, so workers never migrate.
  const store = await openStoreCreatingFolder(options.store, registry, {
    migrate: options.migrate && cluster.isPrimary,
  });
  const firstStart = cluster.isWorker
    ? undefined
    : await prepareFirstStart(store, registry, options.seed, options.sandboxEdorg);
  const apps = await createEdFiApps(
    {
      store,
      registry,
      basePath: options.basePath,
      logger,
      onResponse: logger.request,
      admin,
      trustProxy: options.trustProxy,
    },
    options.adminPort !== undefined,
  );
  const listener = await listen(apps.api.handler, { port: options.port, host: options.host, tls });
  const adminListener =
    apps.admin &&
    (await listen(apps.admin.handler, {
      port: options.adminPort ?? 0,
      host: options.adminHost ?? DEFAULT_ADMIN_HOST,
      tls,
    }));
  stopOnSignals(async () => {
    await Promise.all([listener.close(), adminListener?.close()]);
    await store.close();
  }, logger);
  const url = baseUrl(listener.scheme, listener.port, options.basePath);
  const startupMs = Math.round(performance.now() - started);
  const adminApi = adminListener
    ? { port: adminListener.port, host: options.adminHost ?? DEFAULT_ADMIN_HOST }
    : admin !== undefined;
  logger.info('listening', { url, port: listener.port, host: options.host ?? 'all', startupMs, adminApi });
  if (firstStart !== undefined) output.notice(sandboxBanner(url, firstStart));
}

async function serveWithWorkers(options: ServeOptions, output: ServeOutput): Promise<void> {
  const { logger } = output;
  // Reading the files and checking the admin credential here reports a problem once, before any worker starts.
  const scheme = tlsFilesOf(options) === undefined ? 'http' : 'https';
  adminCredentialsOf(options);
  const firstStart = await prepareStore(options);
  const listening = new Set<number>();
  let stopping = false;
  if (firstStart !== undefined) {
    cluster.once('listening', (_worker, address) => {
      output.notice(sandboxBanner(baseUrl(scheme, address.port, options.basePath), firstStart));
    });
  }
  cluster.on('listening', (worker) => listening.add(worker.id));
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    // A worker that never got to listen (port taken, bad store) would fail again: stop instead of looping.
    if (!listening.delete(worker.id)) {
      logger.error('worker failed to start; stopping', { worker: worker.process.pid, code, signal });
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
