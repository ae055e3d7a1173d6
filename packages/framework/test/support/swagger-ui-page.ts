// Drives a Swagger UI docs page in Chromium the way a user would: authorize, open an operation, execute it and read
// the answer. Used by the browser tests of the framework's example and of the Ed-Fi server.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

const TIMEOUT_MS = 30_000;

export interface ExecutedRequest {
  readonly status: number;
  readonly body: unknown;
}

/** Opens the page and waits until Swagger UI shows the tags of the first document. */
export async function openDocsPage(page: Page, url: string): Promise<void> {
  page.setDefaultTimeout(TIMEOUT_MS);
  await page.goto(url);
  await page.locator('.opblock-tag').first().waitFor();
}

/** Picks a document in the top bar's selector and waits for its tags. */
export async function selectDocument(page: Page, name: string): Promise<void> {
  await page.locator('.topbar select').selectOption({ label: name });
  await page.locator('.opblock-tag').first().waitFor();
}

/**
 * Finds one tag (a resource, in the Ed-Fi documents) with the filter box and expands its operations. Swagger UI renders
 * only the tags near the viewport, so the page scrolls until the tag is there.
 */
export async function openTag(page: Page, tag: string): Promise<void> {
  await page.locator('.operation-filter-input').fill(tag);
  const heading = page.locator(`.opblock-tag[data-tag="${tag}"]`);
  for (let scrolls = 0; scrolls < 100 && (await heading.count()) === 0; scrolls++) await page.mouse.wheel(0, 500);
  await heading.click();
  await page.locator(`.opblock-tag-section.is-open .opblock`).first().waitFor();
}

/** Fills the form of one security scheme of the Authorize dialog (by its field labels) and applies it. */
export async function authorize(page: Page, scheme: string, fields: Readonly<Record<string, string>>): Promise<void> {
  await page.locator('button.authorize').first().click();
  const name = page.locator('h4', { hasText: new RegExp(`^\\s*${scheme}\\s`) });
  const form = page.locator('.auth-container').filter({ has: name });
  for (const [label, value] of Object.entries(fields)) await form.getByLabel(label, { exact: false }).fill(value);
  await form.locator('button.authorize').click();
  await form.locator('button.btn-done').click();
}

/** Expands `GET <path>`, executes it with the prefilled parameters and returns the live response. */
export async function executeGet(page: Page, pathText: string): Promise<ExecutedRequest> {
  const operation = page
    .locator('.opblock-get')
    .filter({ has: page.locator('.opblock-summary-path', { hasText: new RegExp(`^${pathText}$`) }) });
  await operation.locator('.opblock-summary').first().click();
  const tryItOut = operation.locator('button.try-out__btn');
  if ((await tryItOut.count()) > 0 && (await tryItOut.innerText()).includes('Try')) await tryItOut.click();
  await operation.locator('button.execute').click();
  const live = operation.locator('.live-responses-table .response');
  await live.first().waitFor();
  const status = Number((await live.locator('.response-col_status').first().innerText()).trim());
  const body = JSON.parse(await live.locator('.microlight').first().innerText()) as unknown;
  return { status, body };
}

/** Saves a full-page screenshot as `<folder>/__screenshots__/<name>.png` and returns its path. */
export async function saveScreenshot(page: Page, folder: string, name: string): Promise<string> {
  const directory = path.join(folder, '__screenshots__');
  mkdirSync(directory, { recursive: true });
  const file = path.join(directory, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
