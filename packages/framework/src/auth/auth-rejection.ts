// Decides what a client is told when a scheme rejects its credentials, so internal errors never leak.

import type { AuthScheme } from '../types.js';
import { HttpError } from '../errors.js';

export const NOT_AUTHED = 'Not authed.';

export interface AuthLogger {
  warn(message: string, data?: unknown): void;
}

/**
 * Forwards the message of an exposable error (an HttpError meant for clients, or anything marked `expose: true`);
 * anything else, such as a repository's database error, becomes `Not authed.` and goes to the logger.
 */
export function rejectionMessage(error: unknown, scheme: AuthScheme, logger: AuthLogger | undefined): string {
  if (isExposable(error)) return error.message;
  logger?.warn(`Authentication (${scheme}) failed with an unexpected error; answering '${NOT_AUTHED}'.`, error);
  return NOT_AUTHED;
}

function isExposable(error: unknown): error is { message: string } {
  if (error instanceof HttpError) return error.expose;
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as { expose?: unknown; message?: unknown };
  return candidate.expose === true && typeof candidate.message === 'string';
}
