// End to end in Chromium against the real product: cache drift after a stalled watch (the cache misses the
// changes until the watch recovers, then matches a fresh LIST again), both themes (the system's by default,
// then the toggle), the shortcut sheet and keyboard-only navigation. Saves docs/screenshots of the new views.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb, findChromium, launchChromium, root, startProduct } from './support/product';
import type { RunningProduct } from './support/product';

const shots = join(root, 'docs/screenshots');
const chromiumPath = findChromium();
if (!chromiumPath && process.env.CONTROLLER_SCOPE_REQUIRE_BROWSER === '1') {
  throw new Error('chromium not found, but CONTROLLER_SCOPE_REQUIRE_BROWSER=1');
}

describe.skipIf(!chromiumPath)('cache drift, themes and keyboard in Chromium', () => {
  let product: RunningProduct;
  let browser: Browser;
  const errors: string[] = [];

  async function pageIn(colorScheme: 'light' | 'dark'): Promise<{ ctx: BrowserContext; page: Page }> {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(product.url);
    await page.waitForSelector('[data-testid^="lane-controller-"]', { timeout: 60_000 });
    return { ctx, page };
  }

  beforeAll(async () => {
    buildWeb();
    product = await startProduct();
    browser = await launchChromium(chromiumPath as string);
    mkdirSync(shots, { recursive: true });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('follows the system theme, and the toggle switches it', async () => {
    const light = await pageIn('light');
    expect(await light.page.evaluate('document.documentElement.dataset.theme')).toBe('light');
    await light.page.waitForTimeout(800);
    await light.page.screenshot({ path: join(shots, 'overview-light.png') });
    await light.page.click('[data-testid="theme-toggle"]');
    expect(await light.page.evaluate('document.documentElement.dataset.theme')).toBe('dark');
    await light.ctx.close();
    const dark = await pageIn('dark');
    expect(await dark.page.evaluate('document.documentElement.dataset.theme')).toBe('dark');
    await dark.ctx.close();
  }, 90_000);

  it('opens the shortcut sheet on ?, and everything works from the keyboard', async () => {
    const { ctx, page } = await pageIn('dark');
    await page.keyboard.press('?');
    await page.waitForSelector('[data-testid="shortcut-sheet"]');
    await page.screenshot({ path: join(shots, 'shortcuts.png') });
    await page.keyboard.press('Escape');
    expect(await page.$('[data-testid="shortcut-sheet"]')).toBeNull();
    await page.keyboard.press('4');
    await page.waitForSelector('[data-testid="panel-workqueue"]');
    // Tab to the first key row and open it with Enter: the trace of that key.
    const row = page.locator('[data-testid="queue-keys"] tbody tr[role="button"]').first();
    await row.focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="panel-trace"]');
    expect(await page.evaluate('window.location.hash')).toMatch(/#\/trace\?.*key=/);
    await ctx.close();
  }, 90_000);

  it('shows the drift a stalled watch causes, explained by the reflector history, and its recovery', async () => {
    const { ctx, page } = await pageIn('dark');
    await page.click('[data-testid="nav-faults"]');
    await page.selectOption('[data-testid="fault-kind"]', 'stallWatches');
    await page.fill('label:has-text("resource") input', 'pods');
    await page.fill('label:has-text("lift after") input', '20');
    await page.click('[data-testid="fault-inject"]');
    await page.waitForSelector('[data-testid="command-ok"]', { timeout: 15_000 });
    // Pods keep changing (the node simulator, the churn) while their watches deliver nothing; how soon the first
    // change lands varies, so compare until the cache has fallen behind (well inside the 20 s stall).
    await page.waitForTimeout(3000);
    await page.evaluate("window.location.hash = '#/indexer?informer=v1/Pod'");
    await page.waitForSelector('[data-testid="cache-drift"]');
    let during = '';
    for (let i = 0; i < 12 && !during.includes('drift'); i++) {
      if (i > 0) await page.waitForTimeout(1000);
      await page.click('[data-testid="drift-compare"]');
      await page.waitForSelector('[data-testid="drift-result"]', { timeout: 30_000 });
      await page.waitForFunction(
        "!document.querySelector('[data-testid=\"drift-compare\"]')?.textContent?.includes('listing')",
      );
      during = (await page.textContent('[data-testid="drift-result"]')) ?? '';
    }
    expect(during).toContain('drift');
    expect(during).toMatch(/stalled watch/);
    expect(await page.$('[data-testid="drift-keys"] tbody tr[role="button"]')).not.toBeNull();
    await page.locator('[data-testid="cache-drift"]').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'cache-drift.png') });
    // The stall lifts; the watch catches up from history; a fresh LIST matches the cache again.
    await page.waitForTimeout(10_000);
    let after = '';
    for (let i = 0; i < 20 && !after.includes('in sync'); i++) {
      await page.click('[data-testid="drift-compare"]');
      await page.waitForFunction(
        "!document.querySelector('[data-testid=\"drift-compare\"]')?.textContent?.includes('listing')",
      );
      after = (await page.textContent('[data-testid="drift-result"]')) ?? '';
      if (!after.includes('in sync')) await page.waitForTimeout(1000);
    }
    expect(after).toContain('in sync');
    await page.click('[data-testid="drift-history-link"]');
    await page.waitForSelector('[data-testid="panel-reflector"]');
    await ctx.close();
  }, 120_000);

  it('teaches every Learn section on live data', async () => {
    const { ctx, page } = await pageIn('dark');
    await page.keyboard.press('l');
    await page.waitForSelector('[data-testid="panel-learn"]');
    for (const id of ['config-order', 'manager-builds', 'informer-is', 'builder-examples', 'reconcile-results']) {
      await page.waitForSelector(`[data-testid="${id}"]`);
    }
    expect(await page.textContent('[data-testid="informer-is"]')).toContain(
      'reflector + DeltaFIFO + indexer + handlers',
    );
    // For, Owns and Watches each shown on an event this process handled.
    for (const id of ['builder-for', 'builder-owns', 'builder-watches']) {
      await page.waitForFunction(
        `document.querySelector('[data-testid="${id}"]')?.textContent?.includes('→ request')`,
        undefined,
        {
          timeout: 30_000,
        },
      );
    }
    expect(await page.textContent('[data-testid="builder-owns"]')).toMatch(
      /of v1\/Pod .* → request .* on replicaset-owner/,
    );
    expect(await page.textContent('[data-testid="builder-watches"]')).toMatch(/of apps\/v1\/Deployment/);
    expect(await page.textContent('[data-testid="reconcile-results"]')).toContain('TerminalError');
    // One object followed from its watch event to the reconcile's cached read, once such a story has happened.
    await page.waitForFunction(
      `(() => { const t = document.querySelector('[data-testid="journey"]')?.textContent ?? '';
        return t.includes('watch delivered') && t.includes("read from the informer's cache"); })()`,
      undefined,
      { timeout: 30_000 },
    );
    await page.screenshot({ path: join(shots, 'learn-full.png'), fullPage: true });
    await ctx.close();
  }, 90_000);

  it('raised no uncaught error in the page', () => {
    expect(errors).toEqual([]);
  });
});
