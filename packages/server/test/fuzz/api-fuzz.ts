// Property-based fuzzing of every operation of both OpenAPI documents (issue 14): generated-then-mutated bodies,
// query strings and headers against one server; no 5xx, every 4xx of the data API a problem body, and nothing
// written when a request is refused. `npm test` runs a small seeded budget, `npm run fuzz` a long one (FUZZ_RUNS).
import fc from 'fast-check';
import { expect } from 'vitest';
import type { InjectResponse } from '@edfi-api/framework';
import { getModelRegistry } from '../../src/model/index.js';
import { fullDocument, minimalDocument } from '../../src/testing/index.js';
import { BASE_PATH, DATA_PATH, type EdFiTestServer } from '../support/edfi-server.js';

export interface Operation {
  readonly method: string;
  /** OpenAPI path below `/data/v3`, e.g. `/ed-fi/students/{id}`. */
  readonly path: string;
  readonly queryNames: readonly string[];
}

interface OpenApiDocument {
  readonly paths: Record<string, Record<string, { parameters?: { name?: string; $ref?: string }[] }>>;
}

const DOCUMENTS = ['/metadata/data/v3/resources/swagger.json', '/metadata/data/v3/descriptors/swagger.json'];
const PAGING = ['offset', 'limit', 'totalCount', 'minChangeVersion', 'maxChangeVersion', 'pageToken', 'pageSize'];

/** Every operation of both documents, as the server itself publishes them. */
export async function operationsOf(app: EdFiTestServer): Promise<Operation[]> {
  const operations: Operation[] = [];
  for (const url of DOCUMENTS) {
    const document = (await app.server.inject({ url: `${BASE_PATH}${url}` })).json<OpenApiDocument>();
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const named = (operation.parameters ?? []).flatMap((parameter) => (parameter.name ? [parameter.name] : []));
        operations.push({ method: method.toUpperCase(), path, queryNames: [...named, ...PAGING] });
      }
    }
  }
  return operations;
}

/** Values that have broken servers: huge and odd numbers, injection text, control and non-BMP characters. */
const nastyText = fc.constantFrom(
  '1e400',
  '-1e400',
  '123456789012345678901234567890123',
  "' OR 1=1 --",
  '"; DROP TABLE document; --',
  '%00',
  '\u0000',
  '\uFEFF',
  '😀',
  '../../etc/passwd',
  'null',
  '',
  ' ',
  'uri://ed-fi.org/GradeLevelDescriptor#Ninth grade',
  '2021-02-30',
  '9999-12-31T23:59:59Z',
);
/** Number tokens JSON allows but doubles or decimals do not hold. */
const numberToken = fc.constantFrom(
  '1e400',
  '-1e400',
  '1e29',
  '-8e28',
  '123456789012345678901234567890123',
  '1.5e-400',
  '-0',
);
const queryValue = fc.oneof(nastyText, fc.string({ maxLength: 40 }), fc.integer().map(String));
const jsonish = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  nastyText,
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 0.1 + 0.2),
);

/** A member of the document replaced, removed, or an unknown one added. */
const mutation = fc.record({
  kind: fc.constantFrom('replace', 'remove', 'add', 'nest'),
  pick: fc.nat(),
  value: jsonish,
});

const bodyShape = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('mutated'), mutations: fc.array(mutation, { maxLength: 3 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('text'), text: fc.string({ maxLength: 60 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('raw-number'), token: fc.oneof(numberToken, nastyText), pick: fc.nat() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncated'), cut: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('bom'), mutations: fc.constant([]) }) },
);

export const requestArbitrary = (operations: readonly Operation[]) =>
  fc.record({
    operation: fc.constantFrom(...operations),
    id: fc.oneof(
      fc.uuid().map((id) => id.replace(/-/g, '')),
      fc.string({ maxLength: 40 }),
      nastyText,
    ),
    query: fc.array(fc.tuple(fc.nat(), queryValue), { maxLength: 4 }),
    body: bodyShape,
    seed: fc.integer({ min: 1, max: 1_000_000 }),
    /** Full documents carry the optional members (decimals, nested collections) minimal ones leave out. */
    full: fc.boolean(),
    headers: fc.record(
      {
        'if-match': fc.oneof(fc.string({ maxLength: 20 }), fc.constant('"1"')),
        'use-snapshot': fc.constantFrom('true', 'false', 'TRUE', 'x'),
        'content-type': fc.constantFrom('application/json', 'text/plain', 'application/json; charset=latin1', ''),
      },
      { requiredKeys: [] },
    ),
  });

export type FuzzRequest = ReturnType<typeof requestArbitrary> extends fc.Arbitrary<infer T> ? T : never;

function resourceOf(path: string) {
  const [, namespace, endpoint] = path.split('/');
  return getModelRegistry().getResource(namespace ?? '', endpoint ?? '');
}

function mutate(document: Record<string, unknown>, mutations: FuzzRequest['body'] & { kind: 'mutated' }): unknown {
  const copy: Record<string, unknown> = structuredClone(document);
  for (const { kind, pick, value } of mutations.mutations) {
    const keys = Object.keys(copy);
    const key = keys.length === 0 ? 'x' : keys[pick % keys.length]!;
    if (kind === 'replace') copy[key] = value;
    else if (kind === 'remove') delete copy[key];
    else if (kind === 'add') copy[`fuzz${pick % 7}`] = value;
    else copy[key] = [copy[key], value];
  }
  return copy;
}

function bodyText(request: FuzzRequest): string {
  const resource = resourceOf(request.operation.path);
  const generate = request.full ? fullDocument : minimalDocument;
  const valid = resource ? (generate(resource, undefined, { seed: request.seed }) as Record<string, unknown>) : {};
  const text = JSON.stringify(valid);
  const { body } = request;
  switch (body.kind) {
    case 'mutated':
      return JSON.stringify(mutate(valid, body));
    case 'text':
      return body.text;
    case 'raw-number': {
      // A raw token (`1e400`, a 33-digit number…) in place of a scalar member's value, as only hand-written JSON can
      // carry it; the member is any scalar of the document, at any depth.
      const scalars = [...text.matchAll(/"[A-Za-z_]+":("(?:[^"\\]|\\.)*"|-?[0-9][0-9.eE+-]*|true|false|null)/g)];
      // A number-like token mostly goes where a number was (a decimal, an int), so that range checks are reached.
      const numbers = scalars.filter((match) => /^-?[0-9]/.test(match[1]!));
      const candidates = /^-?[0-9]/.test(body.token) && numbers.length > 0 && body.pick % 4 !== 0 ? numbers : scalars;
      const chosen = candidates[body.pick % Math.max(1, candidates.length)];
      if (chosen === undefined) return body.token;
      const start = chosen.index + chosen[0].length - chosen[1]!.length;
      return `${text.slice(0, start)}${body.token}${text.slice(start + chosen[1]!.length)}`;
    }
    case 'truncated':
      return text.slice(0, body.cut % Math.max(1, text.length));
    case 'bom':
      return `\uFEFF${text}`;
  }
}

function urlOf(request: FuzzRequest): string {
  const path = request.operation.path.replace('{id}', encodeURIComponent(request.id));
  const names = request.operation.queryNames;
  const query = new URLSearchParams(
    request.query.map(([pick, value]): [string, string] => [names[pick % names.length]!, value]),
  );
  const search = query.toString();
  return `${DATA_PATH}${path}${search === '' ? '' : `?${search}`}`;
}

function expectProblemBody(response: InjectResponse, label: string): void {
  const body = response.json<{ type?: unknown; status?: unknown; detail?: unknown }>();
  expect(typeof body.type, label).toBe('string');
  expect(body.status, label).toBe(response.status);
  expect(typeof body.detail, label).toBe('string');
}

/** Sends one generated request and checks the properties; returns the status. */
export async function checkRequest(app: EdFiTestServer, request: FuzzRequest): Promise<number> {
  const { method } = request.operation;
  const writes = method === 'POST' || method === 'PUT' || method === 'DELETE';
  const before = writes ? await app.store.newestChangeVersion() : 0;
  const headers: Record<string, string> = { authorization: `Bearer ${app.token}` };
  for (const [name, value] of Object.entries(request.headers)) if (value !== '') headers[name] = value;
  headers['content-type'] ??= 'application/json';
  const response = await app.server.inject({
    method,
    url: urlOf(request),
    headers,
    ...(method === 'POST' || method === 'PUT' ? { body: bodyText(request) } : {}),
  });
  const label = `${method} ${urlOf(request)} → ${response.status} ${response.body.slice(0, 300)}`;
  expect(response.status, label).toBeLessThan(500);
  if (response.status >= 400 && response.status !== 413) expectProblemBody(response, label);
  if (writes && response.status >= 400) expect(await app.store.newestChangeVersion(), label).toBe(before);
  return response.status;
}
