// The browser part of `npm run bench`: the real product (`controller-scope run bench/browser-load.ts` on the
// sandbox, a child process as `npm start` runs it) in Debian's headless Chromium, the web app built for
// production first (a development React build would measure something no user runs).
//   1. Under load — LOAD_OBJECTS cached ConfigMaps patched at LOAD_RATE writes/s through the sandbox's HTTP API,
//      each a watch event the informer indexes and a controller reconciles: time to first render of the
//      overview (navigation start → the load controller's lane in the DOM), then frames per second
//      (requestAnimationFrame) and long tasks (PerformanceObserver 'longtask') over a window on each heavy panel.
//      Then panel switches: rounds of clicks on the sidebar (overview → controller → workqueue → indexer → …),
//      each timed from the click's input event to the frame that paints the new panel, with the long tasks
//      from the click until 1.5 s after that frame (the charts that mount in the background included).
//   2. A cache of `keys` ConfigMaps, no writes: the Indexer listing all of them (navigation → caption says all
//      keys are listed), and searches typed into it (input event → caption and first row show the match).
import type { Browser, Page } from 'playwright-core';
import { buildWeb, findChromium, launchChromium, startProduct } from '../test/e2e/support/product';
import { fmtCount } from '../web/components/format';
import { loadKey } from './browser-load';
import {
  FIRST_RENDER,
  SWITCH_DONE,
  armSwitch,
  SCRIPT_LOADED,
  frameWindow,
  initScript,
  listedAll,
  timedSearch,
  type FrameWindow,
  type SearchTiming,
  type SwitchTiming,
} from './browser-page';

export interface BrowserShape {
  objects: number;
  rate: number;
  windowMs: number;
  keys: number;
  /** Rounds of clicks through the four panels, after their windows. */
  switchRounds: number;
}

export const BROWSER_FULL: BrowserShape = {
  objects: 10_000,
  rate: 5_000,
  windowMs: 10_000,
  keys: 100_000,
  switchRounds: 3,
};
export const BROWSER_QUICK: BrowserShape = {
  objects: 2_000,
  rate: 1_000,
  windowMs: 3_000,
  keys: 10_000,
  switchRounds: 2,
};

export interface PanelFrameFigure {
  panel: string;
  fps: number;
  longTasks: number;
  maxLongTaskMs: number;
  /** Writes/s the sandbox sustained during the window (what the load module printed). */
  writesPerSecond: number;
  /** Dashboard events/s (informer, queue, reconcile…) the page applied during the window. */
  eventsPerSecond: number;
  /** The longest task in the 1.5 s after switching to the panel (mounting it, unmounting the one before). */
  switchLongestMs: number;
}

/** One click on the sidebar under load. */
export interface SwitchFigure {
  from: string;
  to: string;
  /** Click (its input event) → the animation frame after the new panel is visible. */
  paintMs: number;
  /** The longest task from the click until 1.5 s after that frame; 0 when none passed 50 ms. */
  longestMs: number;
}

/** The page's JavaScript heap after a collection, and the elements in its document. */
export interface PageMemory {
  heapBytes: number;
  domNodes: number;
}

export interface SearchFigure {
  query: string;
  matches: number;
  renderedMs: number;
  frameMs: number;
}

export interface BrowserFigures {
  shape: BrowserShape;
  source: string;
  seedMs?: number;
  /** The median of FIRST_RENDER_SAMPLES loads. */
  firstRenderMs: number;
  /** Each load's first render and script arrival, ms (objects, not bare numbers: latest.json stays as prettier writes it). */
  firstRenderLoads: { firstRenderMs: number; scriptLoadedMs: number }[];
  /** When the app's script had arrived (part of the first render the server's load decides). */
  scriptLoadedMs: number;
  panels: PanelFrameFigure[];
  /** Clicks between the panels under the same load, every panel visited before (its window). */
  switches: SwitchFigure[];
  /**
   * The first panel's window again after the switches, every other panel opened before (kept, hidden): its
   * frames and long tasks, and the page's memory then against the memory with that panel alone.
   */
  kept?: { panel: string; fps: number; longTasks: number; maxLongTaskMs: number; alone: PageMemory; after: PageMemory };
  indexer: {
    keys: number;
    listMs?: number;
    listCaption?: string;
    /** The panel left open on the whole list for a window (its refreshes included). */
    idle?: { fps: number; longTasks: number; maxLongTaskMs: number };
    searches: SearchFigure[];
    error?: string;
  };
}

const VIEWPORT = { width: 1280, height: 800 };
const PANELS = ['overview', 'controller', 'workqueue', 'indexer'] as const;
const ROUTE = '?controller=load&informer=v1/ConfigMap';
const LIST = '[data-testid="cache-key-list"]';
const CAPTION = '[data-testid="cache-key-list-count"]';
const SEARCH_INPUT = '[data-testid="cache-keys"] input';

/** The product's "load: …" lines, kept with when they were printed. */
class LoadLog {
  seedMs?: number;
  private seeded?: () => void;
  readonly seededP = new Promise<void>((ok) => (this.seeded = ok));
  private readonly rates: { at: number; n: number }[] = [];
  private buf = '';
  feed = (text: string): void => {
    this.buf += text;
    const lines = this.buf.split('\n');
    this.buf = lines.pop() ?? '';
    for (const l of lines) {
      const seed = /load: seeded \d+ in (\d+) ms/.exec(l);
      if (seed) {
        this.seedMs = Number(seed[1]);
        this.seeded?.();
      }
      const r = /load: (\d+) updates\/s/.exec(l);
      if (r) this.rates.push({ at: performance.now(), n: Number(r[1]) });
    }
  };
  ratesBetween(from: number, to: number): number {
    const in_ = this.rates.filter((r) => r.at > from && r.at <= to + 1000);
    return in_.length ? in_.reduce((s, r) => s + r.n, 0) / in_.length : 0;
  }
}

/** Loads of the overview timed for its first render, each in a fresh context (no cache, as a first visit). */
const FIRST_RENDER_SAMPLES = 3;

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function openOverview(browser: Browser, url: string): Promise<{ page: Page; first: number; script: number }> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  await page.addInitScript(initScript('[data-testid="lane-controller-load"]'));
  await page.goto(`${url}#/overview${ROUTE}`);
  const first = (await page.evaluate(FIRST_RENDER)) as number;
  const script = (await page.evaluate(SCRIPT_LOADED)) as number;
  return { page, first, script };
}

async function underLoad(browser: Browser, shape: BrowserShape, url: string, log: LoadLog) {
  const samples: { first: number; script: number }[] = [];
  let open: Awaited<ReturnType<typeof openOverview>> | undefined;
  for (let i = 0; i < FIRST_RENDER_SAMPLES; i++) {
    await open?.page.close();
    open = await openOverview(browser, url);
    samples.push({ first: open.first, script: open.script });
  }
  const page = (open as NonNullable<typeof open>).page;
  const firstRenderMs = median(samples.map((x) => x.first));
  const scriptLoadedMs = median(samples.map((x) => x.script));
  const firstRenderLoads = samples.map((x) => ({
    firstRenderMs: Math.round(x.first),
    scriptLoadedMs: Math.round(x.script),
  }));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const settled = async (): Promise<PageMemory> => {
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const m = (name: string): number => metrics.find((x) => x.name === name)?.value ?? Number.NaN;
    // Elements in the document: Chromium's own node count also holds detached nodes the collector has not freed.
    const domNodes = (await page.evaluate('document.getElementsByTagName("*").length')) as number;
    return { heapBytes: m('JSHeapUsedSize'), domNodes };
  };
  let alone: PageMemory | undefined;
  const panels: PanelFrameFigure[] = [];
  for (const panel of PANELS) {
    const before = (await page.evaluate('window.__bench.longTasks.length')) as number;
    await page.evaluate(`window.location.hash = '#/${panel}${ROUTE}'`);
    await page.waitForSelector(`[data-testid="panel-${panel}"]`, { timeout: 30_000 });
    await page.waitForTimeout(1500);
    const switching = (await page.evaluate(
      `window.__bench.longTasks.slice(${before}).map((t) => t.duration)`,
    )) as number[];
    const from = performance.now();
    const w = (await page.evaluate(frameWindow(shape.windowMs))) as FrameWindow;
    panels.push({
      panel,
      fps: w.frames / (w.ms / 1000),
      longTasks: w.longTasks.length,
      maxLongTaskMs: Math.max(0, ...w.longTasks.map((t) => t.duration)),
      writesPerSecond: log.ratesBetween(from, performance.now()),
      eventsPerSecond: w.events / (w.ms / 1000),
      switchLongestMs: Math.max(0, ...switching),
    });
    // The first panel alone, drawn and after its window: the memory the kept panels are compared with.
    alone ??= await settled();
  }
  const switches = await clickThrough(page, shape.switchRounds);
  // Back on the first panel with the others opened before: what they cost while not shown.
  const first = PANELS[0];
  if (switches.at(-1)?.to !== first) await page.click(`[data-testid="nav-${first}"]`);
  await page.waitForTimeout(1500);
  const w = (await page.evaluate(frameWindow(shape.windowMs))) as FrameWindow;
  const kept = {
    panel: first,
    fps: w.frames / (w.ms / 1000),
    longTasks: w.longTasks.length,
    maxLongTaskMs: Math.max(0, ...w.longTasks.map((t) => t.duration)),
    alone: alone ?? (await settled()),
    after: await settled(),
  };
  await page.close();
  return { firstRenderMs, firstRenderLoads, scriptLoadedMs, panels, switches, kept };
}

/** After a switch, how long its long tasks are collected (the charts mount from a transition after the paint). */
const SWITCH_SETTLE_MS = 1500;

/** Rounds of clicks on the sidebar through the four panels, from the one the page is on. */
async function clickThrough(page: Page, rounds: number): Promise<SwitchFigure[]> {
  const out: SwitchFigure[] = [];
  let from: string = PANELS[PANELS.length - 1] ?? '';
  for (let r = 0; r < rounds; r++) {
    for (const to of PANELS) {
      if (to === from) continue;
      await page.evaluate(armSwitch(to, SWITCH_SETTLE_MS, 30_000));
      await page.click(`[data-testid="nav-${to}"]`);
      const t = (await page.evaluate(SWITCH_DONE)) as SwitchTiming;
      out.push({ from, to, paintMs: t.paintMs, longestMs: Math.max(0, ...t.longTasks.map((x) => x.duration)) });
      from = to;
    }
  }
  return out;
}

function parseCount(s: string): number {
  const m = /^([\d.,]+)(k|M)?/.exec(s);
  if (!m?.[1]) return NaN;
  const n = Number(m[1].replace(/,/g, ''));
  return m[2] === 'k' ? n * 1000 : m[2] === 'M' ? n * 1_000_000 : n;
}

async function indexer(page: Page, shape: BrowserShape, url: string): Promise<BrowserFigures['indexer']> {
  const out: BrowserFigures['indexer'] = { keys: shape.keys, searches: [] };
  await page.addInitScript(initScript(CAPTION));
  const t0 = Date.now();
  await page.goto(`${url}#/indexer${ROUTE}`);
  const caption = page.locator(CAPTION);
  try {
    // Listed: the caption names every key (no "N of M shown").
    await page.waitForFunction(listedAll(CAPTION, shape.keys), undefined, { timeout: 30_000, polling: 'raf' });
    out.listMs = Date.now() - t0;
  } catch {
    out.listCaption = (await caption.textContent().catch(() => null)) ?? 'no caption';
  }
  out.listCaption ??= (await caption.textContent()) ?? '';
  if (parseCount(out.listCaption) < shape.keys) out.listMs = undefined;
  const w = (await page.evaluate(frameWindow(shape.windowMs))) as FrameWindow;
  out.idle = {
    fps: w.frames / (w.ms / 1000),
    longTasks: w.longTasks.length,
    maxLongTaskMs: Math.max(0, ...w.longTasks.map((t) => t.duration)),
  };
  const width = String(shape.keys - 1).length;
  const all = Array.from({ length: shape.keys }, (_, i) => `load/${loadKey(i, width)}`);
  const full = `load/${loadKey(1234, width)}`;
  const queries = [4, 3, 2, 1].map((cut) => full.slice(0, full.length - cut + 1));
  try {
    for (const query of [...queries, '']) {
      const matches = query ? all.filter((k) => k.includes(query)).length : shape.keys;
      const expect = query ? `${fmtCount(matches)} matching keys` : '';
      const t = (await page.evaluate(timedSearch(SEARCH_INPUT, LIST, CAPTION, expect, query, 20_000))) as SearchTiming;
      if (query) out.searches.push({ query, matches, ...t });
      await page.waitForTimeout(300);
    }
  } catch (e) {
    out.error = (e as Error).message;
  }
  return out;
}

export async function benchBrowser(shape: BrowserShape, screenshot?: string): Promise<BrowserFigures | string> {
  const chromium = findChromium();
  if (!chromium) return 'browser: not measured (no chromium on PATH)';
  buildWeb();
  const browser = await launchChromium(chromium);
  const load = new LoadLog();
  try {
    const env = { LOAD_OBJECTS: String(shape.objects), LOAD_RATE: String(shape.rate) };
    const product = await startProduct(['run', 'bench/browser-load.ts'], { env, onOutput: load.feed });
    let loaded: Awaited<ReturnType<typeof underLoad>>;
    try {
      await load.seededP;
      // A user opens the dashboard on a system already busy: let the writes reach their steady rate first.
      await new Promise((r) => setTimeout(r, 3000));
      loaded = await underLoad(browser, shape, product.url, load);
    } finally {
      await product.stop();
    }
    const cache = new LoadLog();
    const keysEnv = { LOAD_OBJECTS: String(shape.keys), LOAD_RATE: '0' };
    const big = await startProduct(['run', 'bench/browser-load.ts'], { env: keysEnv, onOutput: cache.feed });
    let idx: BrowserFigures['indexer'];
    try {
      await cache.seededP;
      const page = await browser.newPage({ viewport: VIEWPORT });
      idx = await indexer(page, shape, big.url);
      if (screenshot) await page.screenshot({ path: screenshot });
      await page.close();
    } finally {
      await big.stop();
    }
    return {
      shape,
      source:
        'bench/browser-load.ts under `controller-scope run` on the sandbox: merge patches through its HTTP API, ' +
        'each a watch event indexed by the informer and reconciled by controller "load"',
      ...(load.seedMs !== undefined ? { seedMs: load.seedMs } : {}),
      ...loaded,
      indexer: idx,
    };
  } finally {
    await browser.close();
  }
}
