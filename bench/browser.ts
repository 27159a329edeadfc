// The browser part of `npm run bench`: the real product under the storm workload, each heavy panel open in
// Debian's Chromium for a fixed window, measuring frames per second (requestAnimationFrame) and long tasks
// (PerformanceObserver 'longtask', tasks over 50 ms). The web app is built for production first; a
// development React build would measure something no user runs.
import { buildWeb, findChromium, launchChromium, startProduct } from '../test/e2e/support/product';

export interface PanelFrameFigure {
  panel: string;
  fps: number;
  longTasks: number;
  over100ms: number;
  maxLongTaskMs: number;
}

const PANELS = ['overview', 'workqueue', 'controller'];

export async function benchBrowser(opts: { windowMs: number; stormRate: number }): Promise<string[]> {
  const chromium = findChromium();
  if (!chromium) return ['browser: not measured (no chromium on PATH)'];
  buildWeb();
  const product = await startProduct();
  const browser = await launchChromium(chromium);
  const figures: PanelFrameFigure[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(product.url);
    await page.waitForSelector('[data-testid^="lane-controller-"]', { timeout: 60_000 });
    await page.click('[data-testid="nav-faults"]');
    const w = page.locator('[data-testid="workload"]');
    if ((await w.locator('select').count()) > 0) await w.locator('select').first().selectOption('storm');
    else await w.locator('input').first().fill('storm');
    await w.locator('input[type=number]').first().fill(String(opts.stormRate));
    await w.locator('[data-testid="workload-start"]').click();
    await page.waitForTimeout(8000);
    for (const panel of PANELS) {
      await page.evaluate(`window.location.hash = '#/${panel}?controller=flaky'`);
      await page.waitForTimeout(1500);
      await page.evaluate(`(() => {
        window.__lt = []; window.__frames = 0; window.__on = true;
        new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push(e.duration); }).observe({ type: 'longtask' });
        const f = () => { if (!window.__on) return; window.__frames++; requestAnimationFrame(f); };
        requestAnimationFrame(f);
      })()`);
      await page.waitForTimeout(opts.windowMs);
      const r = (await page.evaluate(
        '(() => { window.__on = false; return { frames: window.__frames, lt: window.__lt }; })()',
      )) as {
        frames: number;
        lt: number[];
      };
      figures.push({
        panel,
        fps: r.frames / (opts.windowMs / 1000),
        longTasks: r.lt.length,
        over100ms: r.lt.filter((d) => d > 100).length,
        maxLongTaskMs: Math.max(0, ...r.lt),
      });
    }
    await page.click('[data-testid="nav-faults"]');
    await page.locator('[data-testid="workload"] button', { hasText: 'Stop' }).click();
  } finally {
    await browser.close();
    await product.stop();
  }
  return [
    `Browser (Chromium, 1280×800, storm at ${opts.stormRate}/s, ${opts.windowMs / 1000} s per panel):`,
    '',
    ...figures.map(
      (f) =>
        `  ${f.panel.padEnd(11)} ${f.fps.toFixed(1).padStart(5)} fps · ${String(f.longTasks).padStart(3)} long tasks · ` +
        `${String(f.over100ms).padStart(3)} over 100 ms · longest ${f.maxLongTaskMs.toFixed(0)} ms`,
    ),
  ];
}
