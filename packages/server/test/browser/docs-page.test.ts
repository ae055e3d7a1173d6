// The documentation page in Chromium through a real socket: pick the students resource, authorize with a client's key
// and secret through the OAuth2 client-credentials flow ({base}/oauth/token), execute a GET and see the 200 with the
// JSON body. The screenshot goes to test/browser/__screenshots__/docs-page.png (git-ignored).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithChromium, launchChromium } from '../../../framework/test/support/chromium.js';
import * as swaggerUi from '../../../framework/test/support/swagger-ui-page.js';
import { createClient } from '../../src/security/index.js';
import { studentDocument } from '../support/documents.js';
import { BASE_PATH, startEdFiServer, type EdFiTestServer } from '../support/edfi-server.js';

describeWithChromium('the documentation page in Chromium', () => {
  let app: EdFiTestServer;
  let browser: Browser;
  let base: string;
  const client = { key: 'docsPageClient', secret: 'a-secret-long-enough-for-the-docs-page-test' };

  beforeAll(async () => {
    app = await startEdFiServer();
    await createClient(app.store, client);
    expect((await app.data('POST', '/ed-fi/students', { body: studentDocument })).status).toBe(201);
    base = `http://127.0.0.1:${(await app.server.listen(0, '127.0.0.1')).port}${BASE_PATH}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await app?.server.close();
    await app?.close();
  });

  it('authorizes with a key and secret and executes GET /ed-fi/students: 200 with the students', async () => {
    const page = await browser.newPage();
    await swaggerUi.openDocsPage(page, `${base}/docs`);
    await swaggerUi.openTag(page, 'students');
    await swaggerUi.authorize(page, 'oauth2_client_credentials', {
      client_id: client.key,
      client_secret: client.secret,
    });
    const response = await swaggerUi.executeGet(page, '/ed-fi/students');
    await swaggerUi.saveScreenshot(page, import.meta.dirname, 'docs-page');
    expect(response.status).toBe(200);
    expect(response.body).toEqual([expect.objectContaining({ studentUniqueId: studentDocument.studentUniqueId })]);
  }, 120_000);

  it('switches to the descriptors document', async () => {
    const page = await browser.newPage();
    await swaggerUi.openDocsPage(page, `${base}/docs`);
    await swaggerUi.selectDocument(page, 'Descriptors');
    await swaggerUi.openTag(page, 'gradeLevelDescriptors');
    await expect
      .poll(() => page.locator('.opblock-tag-section.is-open .opblock-summary-path').allInnerTexts())
      .toContain('/ed-fi/gradeLevelDescriptors');
  }, 120_000);
});
