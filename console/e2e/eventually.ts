import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** Retries an assertion until it holds (the page updates asynchronously), then fails with its last error. */
export async function eventually(check: () => Promise<void>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const squash = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim();

export const hasText = (locator: Locator, expected: string | RegExp | string[]) =>
  eventually(async () => {
    if (Array.isArray(expected)) expect((await locator.allTextContents()).map(squash)).toEqual(expected);
    else if (expected instanceof RegExp) expect(squash(await locator.textContent({ timeout: 1000 }))).toMatch(expected);
    else expect(squash(await locator.textContent({ timeout: 1000 }))).toBe(expected);
  });

export const containsText = (locator: Locator, expected: string) =>
  eventually(async () => expect(squash(await locator.textContent({ timeout: 1000 }))).toContain(squash(expected)));

export const isVisible = (locator: Locator) => locator.waitFor({ state: 'visible', timeout: 15_000 });
export const isHidden = (locator: Locator) => locator.waitFor({ state: 'hidden', timeout: 15_000 });
export const hasCount = (locator: Locator, n: number) => eventually(async () => expect(await locator.count()).toBe(n));
export const hasValue = (locator: Locator, v: string) => eventually(async () => expect(await locator.inputValue({ timeout: 1000 })).toBe(v));
export const atUrl = (page: Page, url: string | RegExp) =>
  eventually(async () => (typeof url === 'string' ? expect(page.url()).toBe(url) : expect(page.url()).toMatch(url)));
