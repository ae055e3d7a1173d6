// The example application's docs page in a real browser: Swagger UI over its OpenAPI 3.1 documents, authorized with
// the demo client's key and secret, executing a GET through a real socket.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { ApiServer } from '../../src/index.js';
import { createHelloServer } from '../../examples/hello/src/app.js';
import { describeWithChromium, launchChromium } from '../support/chromium.js';
import {
  authorize,
  executeGet,
  openDocsPage,
  openTag,
  saveScreenshot,
  selectDocument,
} from '../support/swagger-ui-page.js';

describeWithChromium('the example docs page in Chromium', () => {
  let server: ApiServer;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    server = await createHelloServer({ info() {}, warn() {}, error() {} });
    base = `http://127.0.0.1:${(await server.listen(0, '127.0.0.1')).port}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('authorizes with the demo client and executes GET /whoami, answered 200 with JSON', async () => {
    const page = await browser.newPage();
    await openDocsPage(page, `${base}/api/v1/docs`);
    await authorize(page, 'basic', { Username: 'demo-client', Password: 'demo-secret' });
    await openTag(page, 'default');
    const response = await executeGet(page, '/api/v1/whoami');
    await saveScreenshot(page, import.meta.dirname, 'example-docs');
    expect(response).toEqual({ status: 200, body: { scheme: 'basic', clientId: 'demo-client' } });
  }, 60_000);

  it('switches to the version 2 document', async () => {
    const page = await browser.newPage();
    await openDocsPage(page, `${base}/api/v1/docs`);
    await selectDocument(page, 'v2');
    await openTag(page, 'default');
    await expect.poll(() => page.locator('.opblock-summary-path').allInnerTexts()).toContain('/api/v2/users/{id}');
  }, 60_000);
});
