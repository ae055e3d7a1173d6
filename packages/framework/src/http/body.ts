// Reads a request body within the size limit and parses JSON or form content into a payload.

import { Buffer } from 'node:buffer';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { ClientClosedRequest, InvalidInput, PayloadTooLarge, UnsupportedMediaType } from '../errors.js';

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * Collects a stream into one buffer, refusing more than `limit` bytes (declared or streamed), and settles with what
 * `convert` makes of it (a throw rejects).
 */
export function readStream<T>(
  stream: IncomingMessage,
  headers: IncomingHttpHeaders,
  limit: number,
  convert: (bytes: Buffer) => T,
): Promise<T> {
  const declared = headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) {
    stream.resume();
    return Promise.reject(new PayloadTooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    // Plain `on` listeners guarded by `settled`: `once` wraps and binds each listener, per request.
    stream.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) {
        settled = true;
        chunks.length = 0;
        stream.resume();
        reject(new PayloadTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    stream.on('end', () => {
      if (settled) return;
      settled = true;
      try {
        resolve(convert(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
    // A request destroyed before its end (a client gone mid-body: ECONNRESET) emits 'close', with the cause in
    // `errored`; it emits 'error' only to listeners, so one 'close' listener does the work of two, each of which costs.
    stream.on('close', () => {
      if (settled) return;
      settled = true;
      const error: NodeJS.ErrnoException | null = stream.errored;
      reject(error === null || error.code === 'ECONNRESET' ? new ClientClosedRequest() : error);
    });
  });
}

function mediaTypeOf(contentType: string | undefined): string {
  if (contentType === undefined) return '';
  const end = contentType.indexOf(';');
  return (end === -1 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
}

function isJsonMediaType(mediaType: string): boolean {
  return mediaType === '' || mediaType === 'application/json' || mediaType.endsWith('+json');
}

/** Only text naming one of these can carry a poisoned key; the reviver, which costs, runs only then. */
function mayBePoisoned(text: string): boolean {
  return text.includes('__proto__') || text.includes('constructor') || text.includes('\\u');
}

function stripPoisonedKeys(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (Object.prototype.hasOwnProperty.call(record, '__proto__')) {
      throw new InvalidInput('Body payload contains a forbidden property name.');
    }
    if (
      Object.prototype.hasOwnProperty.call(record, 'constructor') &&
      record.constructor !== null &&
      typeof record.constructor === 'object' &&
      Object.prototype.hasOwnProperty.call(record.constructor, 'prototype')
    ) {
      throw new InvalidInput('Body payload contains a forbidden property name.');
    }
  }
  return value;
}

export function parseJson(text: string): unknown {
  let value: unknown;
  try {
    value = mayBePoisoned(text) ? JSON.parse(text, stripPoisonedKeys) : JSON.parse(text);
  } catch (error) {
    if (error instanceof InvalidInput) throw error;
    throw new InvalidInput('Body payload contains invalid JSON.');
  }
  return value;
}

export function parseForm(text: string): Record<string, string> {
  const form = Object.create(null) as Record<string, string>;
  for (const [name, value] of new URLSearchParams(text)) form[name] = value;
  return form;
}

const BYTE_ORDER_MARK = 0xfeff;

function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text;
}

/**
 * Turns raw body bytes into the request payload: JSON for JSON media types or none, forms for urlencoded,
 * anything else only if it parses as JSON. An empty body is `undefined`.
 */
export function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  // A UTF-8 byte order mark is not part of the text (RFC 8259 §8.1 lets parsers ignore it; .NET's readers strip it).
  const text = withoutByteOrderMark(raw.toString('utf8'));
  const mediaType = mediaTypeOf(contentType);
  if (mediaType === 'application/x-www-form-urlencoded') return parseForm(text);
  let value: unknown;
  if (isJsonMediaType(mediaType)) {
    value = parseJson(text);
  } else {
    try {
      value = parseJson(text);
    } catch {
      throw new UnsupportedMediaType();
    }
  }
  if (value === null || typeof value !== 'object') {
    throw new InvalidInput('Body payload must be a JSON object or array.');
  }
  return value;
}
