// End to end in Chromium: a user's own controller started by `controller-scope run` (the crd-operator example,
// beside a module whose setup throws) is on the Overview as a lane of its own, its keys have a trace, and the
// broken module's message with its file and line is above every panel. Saves the README's screenshot.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb, findChromium, launchChromium, root, startProduct } from './support/product';
import type { RunningProduct } from './support/product';

const shots = join(root, 'docs/screenshots');
const chromiumPath = findChromium();
if (!chromiumPath && process.env.CONTROLLER_SCOPE_REQUIRE_BROWSER === '1') {
  throw new Error('chromium not found, but CONTROLLER_SCOPE_REQUIRE_BROWSER=1');
}

describe.skipIf(!chromiumPath)('controller-scope run in Chromium', () => {
  let product: RunningProduct;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    buildWeb();
    product = await startProduct(['run', 'examples/crd-operator/controller.ts', 'test/run/fixtures/setup-throws.ts']);
    browser = await launchChromium(chromiumPath as string);
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (e) => errors.push(e.message));
    mkdirSync(shots, { recursive: true });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it("shows the user's controller on the Overview, and the broken module's file and line above it", async () => {
    await page.goto(product.url);
    await page.waitForSelector('[data-testid="lane-controller-website"]', { timeout: 60_000 });
    const modules = await page.textContent('[data-testid="modules"]');
    expect(modules).toMatch(/Your controllers · controller\.ts website generation 1/);
    const failed = await page.textContent('[data-testid="module-failed-setup-throws.ts"]');
    expect(failed).toContain('no API group for widgets.example.com');
    expect(failed).toMatch(/setup-throws\.ts:6/);
    // No example controller was started beside the user's.
    expect(await page.$('[data-testid="lane-controller-hot-loop"]')).toBeNull();
    await page.waitForTimeout(1500);
    await page.screenshot({ path: join(shots, 'run-own-controller.png') });
  }, 90_000);

  it("opens a trace of one of the user's keys, with its reconciles", async () => {
    await page.goto(`${product.url}#/trace?controller=website`);
    await page.waitForSelector('[data-testid="panel-trace"]', { timeout: 30_000 });
    const key = await page.$eval('[data-testid="select-key"]', (el) => (el as unknown as { value: string }).value);
    expect(key).toMatch(/^websites-demo\//);
    await page.waitForFunction(
      `/Reconciles\\s*[1-9]/.test(document.querySelector('[data-testid="panel-trace"]')?.textContent ?? '')`,
      undefined,
      { timeout: 30_000 },
    );
    expect(errors).toEqual([]);
  }, 90_000);
});
