import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** Debian's chromium, headless, with nothing that reaches out to the network on its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1366, height: 900 };

/** Requests that failed or answered 4xx/5xx while a page was used, as "status url" lines. */
export function watchRequests(page: Page): string[] {
  const problems: string[] = [];
  page.on('requestfailed', (request) => problems.push(`failed ${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  return problems;
}

/**
 * What does not fit the viewport's width: the document scrolling sideways, or a control (input,
 * button, select, link) that sticks out left or right. Empty when the page fits.
 */
export async function overflowsOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const found: string[] = [];
    const scrollWidth = document.documentElement.scrollWidth;
    if (scrollWidth > width) found.push(`document is ${scrollWidth}px wide in a ${width}px viewport`);
    for (const control of document.querySelectorAll<HTMLElement>('input:not([type=hidden]), button, select, textarea, a')) {
      const box = control.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (box.left < 0 || box.right > width) {
        found.push(`${control.tagName.toLowerCase()} "${(control.textContent ?? '').trim().slice(0, 40) || control.getAttribute('name')}" spans ${Math.round(box.left)}..${Math.round(box.right)}px`);
      }
    }
    return found;
  });
}
