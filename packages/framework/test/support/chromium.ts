// Debian's Chromium driven by playwright-core, for the docs-page tests of the framework and the server: found at
// CHROMIUM_PATH or /usr/bin/chromium. Without it those tests are skipped with one line, unless EDFI_REQUIRE_CHROMIUM=1
// (as in CI, whose script installs it).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { describe, type SuiteOptions } from 'vitest';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function chromiumPresent(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  const message = `Chromium is not at ${CHROMIUM_PATH}`;
  if (process.env.EDFI_REQUIRE_CHROMIUM === '1') throw new Error(`${message}; EDFI_REQUIRE_CHROMIUM=1 requires it`);
  console.log(`${message}: skipping the browser tests (apt-get install chromium, or set CHROMIUM_PATH)`);
  return false;
}

/** A describe block that runs only when Chromium is there. */
export function describeWithChromium(name: string, body: () => void, options: SuiteOptions = {}): void {
  describe.skipIf(!chromiumPresent())(name, options, body);
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
}
