// The listening and proxy options of `serve` (issue 14): where the API and the admin API listen, and which reverse
// proxy's `X-Forwarded-*` headers are believed.
import { InvalidArgumentError, Option, type Command } from 'commander';
import { parseTrustProxy, type TrustProxy } from '../http/meta/index.js';

export interface NetworkOptions {
  /** Interface the API listens on; all interfaces when absent. */
  readonly host?: string;
  /** Serve the admin API on this port instead of the API's. */
  readonly adminPort?: number;
  /** Interface of `adminPort`; loopback by default, so the admin API stays off the public interface. */
  readonly adminHost: string;
  readonly trustProxy?: TrustProxy;
}

export const DEFAULT_ADMIN_HOST = '127.0.0.1';

function port(value: string): number {
  const parsed = Number(value);
  if (!/^[0-9]+$/.test(value) || parsed > 65535) throw new InvalidArgumentError('Expected a port from 0 to 65535.');
  return parsed;
}

function trustProxy(value: string): TrustProxy {
  try {
    return parseTrustProxy(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

export function addNetworkOptions(command: Command): Command {
  return command
    .addOption(new Option('--host <address>', 'interface to listen on (default: all interfaces)'))
    .addOption(new Option('--admin-port <n>', 'serve the admin API on this port only (not on --port)').argParser(port))
    .addOption(new Option('--admin-host <address>', 'interface of --admin-port').default(DEFAULT_ADMIN_HOST))
    .addOption(
      new Option(
        '--trust-proxy <hops|addresses>',
        'believe X-Forwarded-Proto/Host/Port from this many proxies, or from these comma-separated addresses ' +
          '(default: never)',
      ).argParser(trustProxy),
    );
}
