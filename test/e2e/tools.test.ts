// End to end in Chromium against the real product: the tools that act. The step debugger (hold, next and
// what ran, a conditional breakpoint listed and removed, requeue without blanking the page, the held state on
// every panel), recording for one viewer while another keeps streaming, and the recording replayed as a
// player (waits for a viewer, steps, seeks on the marked timeline, plays again at the end). Saves
// docs/screenshots of these views.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb, findChromium, launchChromium, root, startProduct } from './support/product';
import type { RunningProduct } from './support/product';
import type { RuntimeView } from '../../shared/protocol/view';
import { readRecording } from '../../server/dashboard/replay/recording-reader';

const shots = join(root, 'docs/screenshots');
const chromiumPath = findChromium();
if (!chromiumPath && process.env.CONTROLLER_SCOPE_REQUIRE_BROWSER === '1') {
  throw new Error('chromium not found, but CONTROLLER_SCOPE_REQUIRE_BROWSER=1');
}

describe.skipIf(!chromiumPath)('the tools that act, in Chromium', () => {
  let product: RunningProduct;
  let browser: Browser;
  let recordingFile: string | undefined;
  const errors: string[] = [];

  async function open(url: string, hash = ''): Promise<{ ctx: BrowserContext; page: Page }> {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const page = await ctx.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url + hash);
    return { ctx, page };
  }

  const seqOf = async (page: Page): Promise<number> =>
    Number(/seq (\d+)/.exec(await page.locator('.topbar .meta').innerText())?.[1] ?? 0);

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

  it('step debugger: holds, says which key ran, lists and removes a breakpoint, requeues without blanking', async () => {
    const { ctx, page } = await open(product.url, '#/controller?controller=flaky');
    const card = page.locator('[data-testid="step-controls"]');
    await card.waitFor({ timeout: 60_000 });
    const badge = page.locator('[data-testid="step-badge"]');
    await expect.poll(() => badge.innerText(), { timeout: 30_000 }).toContain('dispatching');
    expect(await card.innerText()).toContain('You are changing the controller for everyone');
    await card.getByRole('button', { name: /Hold/ }).click();
    await expect.poll(() => badge.innerText(), { timeout: 10_000 }).toMatch(/holding · \d+ held/);
    // Wait for a key to be ready so Next has something to release.
    await expect
      .poll(async () => Number(/holding · (\d+) held/.exec(await card.innerText())?.[1] ?? 0), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    await card.getByRole('button', { name: /Next key/ }).click();
    await expect
      .poll(() => page.locator('[data-testid="step-last"]').innerText(), { timeout: 15_000 })
      .toMatch(/Released demo\/\S+ to worker \d+: attempt \d+ → \w+ in/);
    await page.fill('[data-testid="step-key"]', 'demo/*');
    await page.selectOption('[data-testid="bp-when"]', 'anyError');
    await page.fill('[data-testid="bp-attempt"]', '2');
    await page.click('[data-testid="bp-add"]');
    const bps = page.locator('[data-testid="breakpoints"]');
    await expect
      .poll(() => bps.innerText())
      .toContain('after demo/* ends in an error (error, terminalError or panic), attempt ≥ 2');
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'step-debugger.png') });
    // Every panel says the controller is held.
    await page.click('[data-testid="nav-indexer"]');
    await expect
      .poll(() => page.locator('[data-testid="held-banner"]').innerText())
      .toContain('“flaky” is held in step mode for everyone');
    expect(await page.locator('[data-testid="held-pill"]').innerText()).toContain('HELD');
    await page.click('[data-testid="nav-controller"]');
    await bps
      .getByRole('button', { name: /remove/ })
      .first()
      .click();
    await expect.poll(() => bps.innerText()).toContain('No breakpoint');
    // Requeue used to blank the whole app (its answer was read as a step state).
    await page.fill('[data-testid="step-key"]', 'demo/requeued-by-e2e');
    await card.getByRole('button', { name: /Requeue key/ }).click();
    await expect.poll(() => card.innerText()).toContain('Requeued demo/requeued-by-e2e');
    expect(await page.locator('[data-testid="panel-controller"]').count()).toBe(1);
    await card.getByRole('button', { name: /Resume/ }).click();
    await expect.poll(() => badge.innerText(), { timeout: 10_000 }).toContain('dispatching');
    await expect.poll(() => page.locator('[data-testid="held-banner"]').count()).toBe(0);
    await ctx.close();
  }, 180_000);

  it("shows a flaky key's backoff history with the limiter's formula, after its retries ran", async () => {
    const { ctx, page } = await open(product.url, '#/trace?controller=flaky');
    const card = page.locator('[data-testid="backoff-history"]');
    await card.waitFor({ timeout: 60_000 });
    await expect.poll(() => card.locator('tbody tr').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    const text = await card.innerText();
    expect(text).toContain('5ms · 2^(n−1)');
    expect(text).toMatch(/upstream service unavailable|conflict|error/);
    await card.scrollIntoViewIfNeeded();
    await card.screenshot({ path: join(shots, 'backoff-history.png') });
    await ctx.close();
  }, 120_000);

  it('a panel opens at its top, not where the previous one was scrolled', async () => {
    const { ctx, page } = await open(product.url, '#/controller?controller=flaky');
    await page.locator('[data-testid="step-controls"]').waitFor({ timeout: 60_000 });
    await page.locator('main').evaluate((m) => m.scrollTo({ top: 10_000 }));
    expect(await page.locator('main').evaluate((m) => m.scrollTop)).toBeGreaterThan(0);
    await page.click('[data-testid="nav-overview"]');
    await expect.poll(() => page.locator('main').evaluate((m) => m.scrollTop)).toBe(0);
    await ctx.close();
  }, 90_000);

  it('records for one viewer while another keeps receiving, and the file downloads', async () => {
    const a = await open(product.url);
    const b = await open(product.url);
    await a.page.locator('[data-testid="viewer-record"]').waitFor({ timeout: 60_000 });
    await b.page.locator('[data-testid="link-status"]').waitFor();
    await a.page.click('[data-testid="viewer-record"]');
    await expect.poll(() => a.page.locator('[data-testid="viewer-record"]').innerText()).toContain('REC');
    const before = await seqOf(b.page);
    await expect.poll(() => seqOf(b.page), { timeout: 20_000 }).toBeGreaterThan(before + 20);
    expect(await b.page.locator('[data-testid="link-status"]').innerText()).toContain('LIVE');
    // Nothing says "recording" to the other viewer: it is not theirs.
    expect(await b.page.locator('[data-testid="viewer-record"]').innerText()).toContain('Rec');
    expect(await b.page.locator('[data-testid="viewer-record"]').innerText()).not.toContain('REC');
    await a.page.waitForTimeout(3000);
    const [download] = await Promise.all([
      a.page.waitForEvent('download'),
      a.page.click('[data-testid="viewer-record"]'),
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'cs-e2e-rec-'));
    recordingFile = join(dir, 'mine.csrec');
    await download.saveAs(recordingFile);
    await a.ctx.close();
    await b.ctx.close();
  }, 120_000);

  it('replays that recording as a player: waits for a viewer, steps, seeks on the marked timeline, plays again', async () => {
    if (!recordingFile) {
      // The recording test did not produce one: record a tiny session here so this test still runs.
      recordingFile = join(mkdtempSync(join(tmpdir(), 'cs-e2e-rec-')), 'fallback.csrec');
      const res = await fetch(new URL('api/recording', product.url));
      writeFileSync(recordingFile, Buffer.from(await res.arrayBuffer()));
    }
    const replay = await startProduct(['--replay', recordingFile]);
    try {
      // Nobody is watching yet: the replay has not started (it used to finish before anyone connected).
      await new Promise((r) => setTimeout(r, 2000));
      const unwatched = (await (await fetch(new URL('api/view', replay.url))).json()) as RuntimeView;
      // It shows the state the recording starts with, and no event of it yet.
      const { states } = await readRecording(recordingFile);
      expect(unwatched.lastSeq).toBe(states[0]?.seq ?? 0);
      const { ctx, page } = await open(replay.url);
      const player = page.locator('[data-testid="replay-controls"]');
      await player.waitFor({ timeout: 60_000 });
      const position = page.locator('[data-testid="replay-position"]');
      const seqAt = async () => Number(/seq (\d+) \//.exec(await position.innerText())?.[1] ?? 0);
      const total = Number(/\/ (\d+)/.exec(await position.innerText())?.[1] ?? 0);
      expect(total).toBeGreaterThan(0);
      expect(await seqAt()).toBeLessThan(total);
      // The slider moves while it plays.
      const slider = page.locator('[data-testid="replay-seek"]');
      const v0 = Number(await slider.inputValue());
      await expect.poll(async () => Number(await slider.inputValue()), { timeout: 20_000 }).toBeGreaterThan(v0);
      await player.getByRole('button', { name: /Pause/ }).click();
      // The page shows the view it holds, a few batches behind the server while playing; the position to
      // step from is where the server paused, which the page shows once it hears of the pause.
      await player.getByRole('button', { name: '▶ Play', exact: true }).waitFor();
      const paused = await seqAt();
      await player.getByRole('button', { name: 'one event back' }).click();
      await expect.poll(seqAt).toBe(paused - 1);
      expect(await page.locator('[data-testid="replay-last-event"]').innerText()).toContain(`#${paused - 1}`);
      await player.getByRole('button', { name: 'one event forward' }).click();
      await expect.poll(seqAt).toBe(paused);
      // Seek with the keyboard on the timeline.
      await slider.focus();
      await page.screenshot({ path: join(shots, 'replay-player.png') });
      await page.keyboard.press('Home');
      await expect.poll(seqAt).toBeLessThan(paused);
      // The Indexer lists the keys the recording's caches held; Faults says there is no API server.
      await page.click('[data-testid="nav-indexer"]');
      await page.click('[data-testid="nav-faults"]');
      expect(await page.locator('[data-testid="panel-faults"]').innerText()).toContain(
        'This is a replay of a recording',
      );
      // Play to the end at max speed, then Play again starts over.
      await player.getByRole('button', { name: 'max' }).click();
      await expect.poll(() => player.innerText(), { timeout: 60_000 }).toContain('Play again');
      const topbar = await page.locator('.topbar').evaluate((t) => [t.scrollWidth, t.clientWidth]);
      expect(topbar[0]).toBeLessThanOrEqual(topbar[1] as number);
      // At the end, playing (here at 1×) starts over instead of doing nothing.
      await player.getByRole('button', { name: '1×' }).click();
      await expect.poll(seqAt, { timeout: 10_000 }).toBeLessThan(total);
      await expect.poll(() => player.innerText()).toContain('Pause');
      await ctx.close();
    } finally {
      await replay.stop();
    }
  }, 240_000);

  it('raised no uncaught error in any page', () => {
    expect(errors).toEqual([]);
  });
});
