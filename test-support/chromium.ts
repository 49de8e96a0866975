import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium: browser tests and benchmarks never download a browser of their own. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Headless, no sandbox (tests run as root) and no background networking: this machine's
 * closed network refuses Chromium's own connections, many at a time, without these.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
}

/** Undefined when Debian's Chromium is installed, else what is missing (for skipWhenMissing). */
export function missingChromium(): string | undefined {
  return existsSync(CHROMIUM_PATH) ? undefined : `${CHROMIUM_PATH} is missing (apt-get install -y chromium)`;
}
