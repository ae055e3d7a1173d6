// GET {base}/docs: Swagger UI over the two OpenAPI documents, served by this process, linked from discovery; off when
// the server is started without it. (test/browser/docs-page.test.ts drives the page in Chromium.)
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiServer } from '@edfi-api/framework';
import { BASE, metaServer } from './support.js';

function pageSettings(html: string): unknown {
  return JSON.parse(/<script id="docs-settings" type="application\/json">(.*?)<\/script>/.exec(html)![1]!);
}

describe('the documentation page', () => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await metaServer();
  });

  it('serves Swagger UI over the resources and descriptors documents of this API', async () => {
    const page = await server.inject({ url: `${BASE}/docs`, headers: { host: 'example.org' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(pageSettings(page.body)).toEqual({
      title: 'Ed-Fi API documentation',
      pagePath: `${BASE}/docs`,
      documents: [
        { name: 'Resources', url: `${BASE}/metadata/data/v3/resources/swagger.json` },
        { name: 'Descriptors', url: `${BASE}/metadata/data/v3/descriptors/swagger.json` },
      ],
    });
    for (const { url } of (pageSettings(page.body) as { documents: { url: string }[] }).documents) {
      expect((await server.inject({ url })).status).toBe(200);
    }
  });

  it('serves the Swagger UI files from swagger-ui-dist, and nothing else below the page', async () => {
    const bundle = await server.inject({ url: `${BASE}/docs/swagger-ui-bundle.js` });
    expect(bundle.status).toBe(200);
    expect(bundle.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(bundle.body).toContain('SwaggerUIBundle');
    expect((await server.inject({ url: `${BASE}/docs/swagger-ui.css` })).status).toBe(200);
    expect((await server.inject({ url: `${BASE}/docs/docs-page.js` })).body).toContain('SwaggerUIBundle(');
    expect((await server.inject({ url: `${BASE}/docs/index.html` })).status).toBe(404);
  });

  it('is linked from the discovery document', async () => {
    const response = await server.inject({ url: `${BASE}/`, headers: { host: 'example.org' } });
    expect(response.json<{ urls: Record<string, string> }>().urls.apiDocumentation).toBe(
      `http://example.org${BASE}/docs`,
    );
  });
});

describe('without the documentation page', () => {
  it('answers 404 at {base}/docs and leaves it out of discovery', async () => {
    const server = await metaServer({ docs: false });
    expect((await server.inject({ url: `${BASE}/docs` })).status).toBe(404);
    const discovery = await server.inject({ url: `${BASE}/`, headers: { host: 'example.org' } });
    expect(discovery.json<{ urls: Record<string, string> }>().urls).not.toHaveProperty('apiDocumentation');
  });
});
