// What the browser part prints and how it judges it: the browser targets (frames, long tasks, first
// render, search) and the panel switches, checked against one run's figures, as lines beside the figures and
// as a targets table. Pure, so the verdicts are tested without a browser.
import { fmtCount } from '../web/components/format';
import type { BrowserFigures, SwitchFigure } from './browser';
import type { Target } from './ingest-targets';
import { render } from './table';

/**
 * switchPaintMs: from a click on the sidebar to the frame that paints the panel, for the slowest click of the
 * run. 100 ms is where a response stops feeling instant; judged on the slowest click, as the long tasks are on
 * the longest one, because each click is one a user waits for.
 */
export const TARGETS = { fps: 50, longTaskMs: 100, firstRenderMs: 1000, searchMs: 100, switchPaintMs: 100 } as const;

const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');

const most = (xs: readonly number[]): number | undefined => (xs.length ? Math.max(...xs) : undefined);
const least = (xs: readonly number[]): number | undefined => (xs.length ? Math.min(...xs) : undefined);
const median = (xs: readonly number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

function judged(what: string, value: number | undefined, goal: string, ok: (v: number) => boolean): Target {
  return { what, value, goal, met: value === undefined ? undefined : ok(value) };
}

/** The browser targets of one run, each over every row it covers (the worst panel, search or click). */
export function browserTargets(f: BrowserFigures): Target[] {
  const rows = [...f.panels, ...(f.kept ? [f.kept] : []), ...(f.indexer.idle ? [f.indexer.idle] : [])];
  const windows = rows.map((p) => p.maxLongTaskMs);
  const fps = rows.map((p) => p.fps);
  const { fps: minFps, longTaskMs, firstRenderMs, searchMs, switchPaintMs } = TARGETS;
  return [
    judged('browser: frames per second, every panel under load', least(fps), `≥ ${minFps} fps`, (v) => v >= minFps),
    judged('browser: longest task on a panel under load', most(windows), `≤ ${longTaskMs} ms`, (v) => v <= longTaskMs),
    judged(
      'browser: first render of the overview',
      f.firstRenderMs,
      `≤ ${firstRenderMs} ms`,
      (v) => v <= firstRenderMs,
    ),
    judged(
      `browser: search over ${fmtCount(f.indexer.keys)} keys, to the painted frame`,
      most(f.indexer.searches.map((s) => s.frameMs)),
      `≤ ${searchMs} ms`,
      (v) => v <= searchMs,
    ),
    judged(
      'browser: longest task switching panels under load',
      most(f.switches.map((s) => s.longestMs)),
      `≤ ${longTaskMs} ms`,
      (v) => v <= longTaskMs,
    ),
    judged(
      'browser: click → new panel painted, slowest click',
      most(f.switches.map((s) => s.paintMs)),
      `≤ ${switchPaintMs} ms`,
      (v) => v <= switchPaintMs,
    ),
  ];
}

export function browserTargetTable(f: BrowserFigures): string {
  return render(
    ['target', 'measured', 'goal', 'verdict'],
    browserTargets(f).map((t) => [
      t.what,
      t.value === undefined ? '–' : t.goal.endsWith('fps') ? `${t.value.toFixed(1)} fps` : `${t.value.toFixed(0)} ms`,
      t.goal,
      t.met === undefined ? 'not measured' : t.met ? 'met' : 'NOT MET',
    ]),
    new Set([1]),
  );
}

/** One line per panel switched to: click → paint (median, slowest) and the longest task, over every click to it. */
function switchLines(switches: readonly SwitchFigure[]): string[] {
  const to = [...new Set(switches.map((s) => s.to))];
  return to.map((panel) => {
    const mine = switches.filter((s) => s.to === panel);
    const paint = mine.map((s) => s.paintMs);
    const longest = Math.max(0, ...mine.map((s) => s.longestMs));
    const slowest = Math.max(...paint);
    return (
      `  → ${panel.padEnd(11)} click → paint ${median(paint).toFixed(0).padStart(4)} ms median, ` +
      `${slowest.toFixed(0).padStart(4)} slowest (≤ ${TARGETS.switchPaintMs}: ${verdict(slowest <= TARGETS.switchPaintMs)}) · ` +
      `longest task ${longest.toFixed(0).padStart(4)} ms (≤ ${TARGETS.longTaskMs}: ${verdict(longest <= TARGETS.longTaskMs)}) · ` +
      `${mine.length} clicks`
    );
  });
}

const MB = (b: number): string => `${(b / 1024 / 1024).toFixed(1)} MB`;

function keptLines(k: NonNullable<BrowserFigures['kept']>): string[] {
  return [
    `  back on the ${k.panel} after the switches ${k.fps.toFixed(1).padStart(5)} fps (≥ ${TARGETS.fps}: ${verdict(k.fps >= TARGETS.fps)}) · ` +
      `${String(k.longTasks).padStart(3)} long tasks, longest ${k.maxLongTaskMs.toFixed(0).padStart(4)} ms ` +
      `(≤ ${TARGETS.longTaskMs}: ${verdict(k.maxLongTaskMs <= TARGETS.longTaskMs)})`,
    `  page memory after a collection: JS heap ${MB(k.alone.heapBytes)} with the ${k.panel} alone, ` +
      `${MB(k.after.heapBytes)} after the switches · elements in the page ${fmtCount(k.alone.domNodes)} → ${fmtCount(k.after.domNodes)}`,
  ];
}

export function browserLines(f: BrowserFigures | string): string[] {
  if (typeof f === 'string') return [f];
  const s = f.shape;
  const lines = [
    `Browser (Chromium headless, 1280×800; ${fmtCount(s.objects)} cached ConfigMaps, ${fmtCount(s.rate)} writes/s asked, ` +
      `${s.windowMs / 1000} s per panel):`,
    `  load: ${f.source}`,
    '',
    `  first render of the overview (median)  ${f.firstRenderMs.toFixed(0).padStart(6)} ms   target ≤ ${TARGETS.firstRenderMs} ms: ${verdict(f.firstRenderMs <= TARGETS.firstRenderMs)} ` +
      `(loads: ${f.firstRenderLoads.map((l) => l.firstRenderMs).join(', ')} ms; app script in at ${f.scriptLoadedMs.toFixed(0)} ms)`,
    ...f.panels.map(
      (p) =>
        `  ${p.panel.padEnd(11)} ${p.fps.toFixed(1).padStart(5)} fps (≥ ${TARGETS.fps}: ${verdict(p.fps >= TARGETS.fps)}) · ` +
        `${String(p.longTasks).padStart(3)} long tasks, longest ${p.maxLongTaskMs.toFixed(0).padStart(4)} ms ` +
        `(≤ ${TARGETS.longTaskMs}: ${verdict(p.maxLongTaskMs <= TARGETS.longTaskMs)}) · ` +
        `${fmtCount(p.writesPerSecond)} writes/s → ${fmtCount(p.eventsPerSecond)} events/s · ` +
        `first visit: longest task ${p.switchLongestMs.toFixed(0)} ms`,
    ),
    ...(f.switches.length
      ? [
          '',
          `  switching panels under the same load, ${s.switchRounds} rounds of clicks on the sidebar ` +
            '(each panel visited before; long tasks until 1.5 s after the paint):',
          ...switchLines(f.switches),
        ]
      : []),
    ...(f.kept ? keptLines(f.kept) : []),
    '',
    `  Indexer, ${fmtCount(f.indexer.keys)} keys: ` +
      (f.indexer.listMs !== undefined
        ? `all listed in ${f.indexer.listMs} ms (navigation → caption "${f.indexer.listCaption}")`
        : `NOT all listed (caption "${f.indexer.listCaption}")`),
    ...(f.indexer.idle
      ? [
          `  open on the whole list ${f.indexer.idle.fps.toFixed(1).padStart(5)} fps (≥ ${TARGETS.fps}: ${verdict(f.indexer.idle.fps >= TARGETS.fps)}) · ` +
            `${String(f.indexer.idle.longTasks).padStart(3)} long tasks, longest ${f.indexer.idle.maxLongTaskMs.toFixed(0).padStart(4)} ms ` +
            `(≤ ${TARGETS.longTaskMs}: ${verdict(f.indexer.idle.maxLongTaskMs <= TARGETS.longTaskMs)})`,
        ]
      : []),
    ...f.indexer.searches.map(
      (q) =>
        `  search "${q.query}" → ${fmtCount(q.matches).padStart(6)} keys in ${q.renderedMs.toFixed(0).padStart(4)} ms ` +
        `(painted frame ${q.frameMs.toFixed(0)} ms)   target ≤ ${TARGETS.searchMs} ms: ${verdict(q.frameMs <= TARGETS.searchMs)}`,
    ),
    ...(f.indexer.error ? [`  search NOT measured: ${f.indexer.error}`] : []),
    '',
    '  Browser targets:',
    '',
    browserTargetTable(f),
  ];
  return lines;
}
