import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '@edfi-api/framework';
import { buildVersion, parseTrustProxy } from '../../../src/http/meta/index.js';
import { BASE, metaServer } from './support.js';

let server: ApiServer;

beforeAll(async () => {
  server = await metaServer();
});

describe('GET {root}/', () => {
  it('answers the discovery document in the ODS property and key order, with absolute URLs', async () => {
    const response = await server.inject({ url: `${BASE}/`, headers: { host: 'example.org:8080' } });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const document = response.json<Record<string, unknown>>();
    expect(Object.keys(document)).toEqual(['version', 'informationalVersion', 'suite', 'build', 'dataModels', 'urls']);
    expect(document).toMatchObject({ version: '7.3', informationalVersion: '7.3', suite: '3' });
    expect(document.build).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(document.dataModels).toEqual([
      { name: 'Ed-Fi', version: '5.2.0', informationalVersion: 'The Ed-Fi Data Model 5.2' },
      { name: 'TPDM', version: '1.1.0', informationalVersion: 'TPDM-Core' },
    ]);
    const root = `http://example.org:8080${BASE}`;
    expect(Object.entries(document.urls as object)).toEqual([
      ['dependencies', `${root}/metadata/data/v3/dependencies`],
      ['openApiMetadata', `${root}/metadata/`],
      ['oauth', `${root}/oauth/token`],
      ['oauthTokenIntrospection', `${root}/oauth/token_info`],
      ['dataManagementApi', `${root}/data/v3/`],
      ['xsdMetadata', `${root}/metadata/xsd`],
      ['changeQueries', `${root}/changeQueries/v1/`],
      ['composites', `${root}/composites/v1/`],
      ['apiDocumentation', `${root}/docs`],
    ]);
  });

  it('is served without the trailing slash too', async () => {
    expect((await server.inject({ url: BASE, headers: { host: 'h' } })).status).toBe(200);
  });

  const oauthUrl = async (on: ApiServer, headers: Record<string, string>) =>
    (await on.inject({ url: `${BASE}/`, headers })).json<{ urls: { oauth: string } }>().urls.oauth;

  it('ignores X-Forwarded-* unless a proxy is trusted', async () => {
    const headers = {
      host: 'internal:8080',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-port': '444',
    };
    expect(await oauthUrl(server, headers)).toBe(`http://internal:8080${BASE}/oauth/token`);
    expect(await oauthUrl(await metaServer({ trustProxy: parseTrustProxy('0') }), headers)).toBe(
      `http://internal:8080${BASE}/oauth/token`,
    );
    // Over inject there is no peer address, so an address list never matches.
    expect(await oauthUrl(await metaServer({ trustProxy: parseTrustProxy('10.0.0.1') }), headers)).toBe(
      `http://internal:8080${BASE}/oauth/token`,
    );
  });

  it('builds URLs from the forwarded scheme, host and port of the trusted hop, dropping default ports', async () => {
    const oneHop = await metaServer({ trustProxy: parseTrustProxy('1') });
    const twoHops = await metaServer({ trustProxy: parseTrustProxy('2') });
    const chain = { host: 'internal:8080', 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'api.example.org' };
    expect(await oauthUrl(twoHops, chain)).toBe(`https://api.example.org${BASE}/oauth/token`);
    // One hop believes only the last proxy's own entry.
    expect(await oauthUrl(oneHop, chain)).toBe(`http://api.example.org${BASE}/oauth/token`);
    expect(await oauthUrl(oneHop, { host: 'internal', 'x-forwarded-proto': 'https', 'x-forwarded-port': '8443' })).toBe(
      `https://internal:8443${BASE}/oauth/token`,
    );
    expect(await oauthUrl(oneHop, { host: 'site:80' })).toBe(`http://site${BASE}/oauth/token`);
  });
});

describe('buildVersion', () => {
  it('turns the package version into four numeric parts', () => {
    expect(buildVersion('0.1.0')).toBe('0.1.0.0');
    expect(buildVersion('7.3.12-beta.1+sha')).toBe('7.3.12.0');
    expect(buildVersion('2')).toBe('2.0.0.0');
  });
});

describe('GET {root}/health', () => {
  it('answers 200 Healthy in plain text', async () => {
    const response = await server.inject({ url: `${BASE}/health` });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.body).toBe('Healthy');
  });
});
