// Structured logs: one JSON object per line on stdout, and a request log that never records secrets.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '@edfi-api/framework';

type Level = 'info' | 'warn' | 'error';
export type LineWriter = (line: string) => void;

function errorFields(_key: string, value: unknown): unknown {
  return value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
}

function logLine(level: Level, message: string, data: unknown): string {
  const entry: Record<string, unknown> = { time: new Date().toISOString(), level, pid: process.pid, msg: message };
  if (typeof data === 'object' && data !== null && !(data instanceof Error) && !Array.isArray(data)) {
    Object.assign(entry, data);
  } else if (data !== undefined) {
    entry.data = data;
  }
  return JSON.stringify(entry, errorFields);
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

export function jsonLogger(write: LineWriter = batchedStdout()): Logger {
  const log = (level: Level) => (message: string, data?: unknown) => write(logLine(level, message, data));
  return { info: log('info'), warn: log('warn'), error: log('error') };
}

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Logs method, path (without the query string, which may carry credentials), status and duration of every request
 * once its response is finished; headers and bodies are never logged.
 */
export function withRequestLog(handler: RequestListener, logger: Pick<Logger, 'info'>): RequestListener {
  return (req, res) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const url = req.url ?? '/';
      const queryStart = url.indexOf('?');
      logger.info('request', {
        method: req.method,
        path: queryStart === -1 ? url : url.slice(0, queryStart),
        status: res.statusCode,
        durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e3) / 1e3,
      });
    });
    handler(req, res);
  };
}
