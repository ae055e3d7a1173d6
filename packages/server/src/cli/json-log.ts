// Structured logs: one JSON object per line on stdout, and a request log that never records secrets.
import type { Logger, ResponseObserver } from '@edfi-api/framework';

type Level = 'info' | 'warn' | 'error';
export type LineWriter = (line: string) => void;

function errorFields(_key: string, value: unknown): unknown {
  return value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
}

function isPlainRecord(data: unknown): data is Record<string, unknown> {
  return typeof data === 'object' && data !== null && !(data instanceof Error) && !Array.isArray(data);
}

/** A replacer takes JSON.stringify off its fast path: info lines (request logs) skip it unless they hold an error. */
function needsErrorFields(level: Level, data: unknown): boolean {
  if (level !== 'info' || data instanceof Error) return true;
  return isPlainRecord(data) && Object.values(data).some((value) => value instanceof Error);
}

function logLine(level: Level, message: string, data: unknown): string {
  const entry: Record<string, unknown> = { time: new Date().toISOString(), level, pid: process.pid, msg: message };
  if (isPlainRecord(data)) {
    Object.assign(entry, data);
  } else if (data !== undefined) {
    entry.data = data;
  }
  return needsErrorFields(level, data) ? JSON.stringify(entry, errorFields) : JSON.stringify(entry);
}

/**
 * Writes lines to stdout in one write per event-loop turn: under load a write per request line costs a system call per
 * request. Pending lines are flushed when the process exits.
 */
export function batchedStdout(): LineWriter {
  let pending = '';
  const flush = (): void => {
    if (pending === '') return;
    const text = pending;
    pending = '';
    process.stdout.write(text);
  };
  process.once('exit', flush);
  return (line) => {
    if (pending === '') setImmediate(flush);
    pending += `${line}\n`;
  };
}

export interface JsonLogger extends Logger {
  /** The request log: method, path (without the query string, which may carry credentials), status, duration. */
  readonly request: ResponseObserver;
}

/** The time as an ISO string, formatted once per millisecond: under load many lines share one. */
function isoTimeNow(): () => string {
  let millis = 0;
  let text = '';
  return () => {
    const now = Date.now();
    if (now !== millis) {
      millis = now;
      text = new Date(now).toISOString();
    }
    return text;
  };
}

export function jsonLogger(write: LineWriter = batchedStdout()): JsonLogger {
  const log = (level: Level) => (message: string, data?: unknown) => write(logLine(level, message, data));
  const time = isoTimeNow();
  const pid = process.pid;
  return {
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    // One line per request, so it is put together directly rather than through an object and JSON.stringify; headers
    // and bodies are never logged.
    request: ({ method, url, status, durationMs }) => {
      const queryStart = url.indexOf('?');
      const path = JSON.stringify(queryStart === -1 ? url : url.slice(0, queryStart));
      const duration = Math.round(durationMs * 1e3) / 1e3;
      write(
        `{"time":"${time()}","level":"info","pid":${pid},"msg":"request","method":${JSON.stringify(method)},` +
          `"path":${path},"status":${status},"durationMs":${duration}}`,
      );
    },
  };
}
