// Serves a request listener over HTTP or HTTPS, and closes gracefully: in-flight requests finish, idle sockets close.
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface TlsFiles {
  readonly cert: Buffer;
  readonly key: Buffer;
}

export interface ListenOptions {
  readonly port: number;
  readonly host?: string;
  readonly tls?: TlsFiles;
}

export interface Listener {
  readonly scheme: 'http' | 'https';
  readonly port: number;
  /** Stops accepting connections and resolves once open requests are done (or cut off after `graceMs`). */
  close(graceMs?: number): Promise<void>;
}

/** Browsers that reached the server over HTTPS keep to HTTPS for a year (RFC 6797). */
const HSTS = 'max-age=31536000';

/** Every HTTPS response carries Strict-Transport-Security, whatever route or error answered it. */
function withHsts(handler: RequestListener): RequestListener {
  return (request, response) => {
    response.setHeader('Strict-Transport-Security', HSTS);
    return handler(request, response);
  };
}

// Longer than the idle timeouts of common load balancers, so they never reuse a socket the server is closing.
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

export function listen(handler: RequestListener, options: ListenOptions): Promise<Listener> {
  const server: Server = options.tls
    ? createHttpsServer({ ...options.tls, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS }, withHsts(handler))
    : createHttpServer({ keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS }, handler);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve({
        scheme: options.tls ? 'https' : 'http',
        port: (server.address() as AddressInfo).port,
        close: (graceMs = 10_000) => closeGracefully(server, graceMs),
      });
    });
  });
}

function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs).unref();
    server.close(() => {
      clearTimeout(deadline);
      resolve();
    });
    server.closeIdleConnections();
  });
}
