import { describe, expect, it } from 'vitest';
import { BROWSER_QUICK, type BrowserFigures, type PanelFrameFigure, type SwitchFigure } from './browser';
import { browserLines, browserTargets } from './browser-targets';

const panel = (name: string, fps: number, maxLongTaskMs: number): PanelFrameFigure => ({
  panel: name,
  fps,
  longTasks: maxLongTaskMs > 0 ? 1 : 0,
  maxLongTaskMs,
  writesPerSecond: 1000,
  eventsPerSecond: 12_000,
  switchLongestMs: 0,
});

const click = (from: string, to: string, paintMs: number, longestMs: number): SwitchFigure => ({
  from,
  to,
  paintMs,
  longestMs,
});

function figures(over: Partial<BrowserFigures> = {}): BrowserFigures {
  return {
    shape: BROWSER_QUICK,
    source: 'test',
    firstRenderMs: 600,
    firstRenderLoads: [{ firstRenderMs: 600, scriptLoadedMs: 90 }],
    scriptLoadedMs: 90,
    panels: [panel('overview', 59, 0), panel('controller', 60, 70)],
    switches: [click('indexer', 'overview', 40, 60), click('overview', 'controller', 30, 0)],
    indexer: {
      keys: 10_000,
      listMs: 300,
      listCaption: '10k keys',
      idle: { fps: 58, longTasks: 0, maxLongTaskMs: 0 },
      searches: [{ query: 'load/cm-1', matches: 10, renderedMs: 5, frameMs: 12 }],
    },
    ...over,
  };
}

const byWhat = (f: BrowserFigures) => new Map(browserTargets(f).map((t) => [t.what, t]));

describe('browserTargets', () => {
  it('meets every target when every row does, each judged on its worst row', () => {
    const t = byWhat(figures());
    expect([...t.values()].every((x) => x.met === true)).toBe(true);
    expect(t.get('browser: frames per second, every panel under load')?.value).toBe(58);
    expect(t.get('browser: longest task on a panel under load')?.value).toBe(70);
    expect(t.get('browser: longest task switching panels under load')?.value).toBe(60);
    expect(t.get('browser: click → new panel painted, slowest click')?.value).toBe(40);
  });

  it('fails the switch targets on one slow click or one long task among fast ones', () => {
    const t = byWhat(
      figures({
        switches: [
          click('indexer', 'overview', 40, 0),
          click('overview', 'controller', 140, 0),
          click('controller', 'workqueue', 30, 120),
        ],
      }),
    );
    expect(t.get('browser: click → new panel painted, slowest click')).toMatchObject({ value: 140, met: false });
    expect(t.get('browser: longest task switching panels under load')).toMatchObject({ value: 120, met: false });
    expect(t.get('browser: longest task on a panel under load')?.met).toBe(true);
  });

  it('says not measured when a part did not run, rather than met', () => {
    const t = byWhat(figures({ switches: [], indexer: { keys: 10_000, searches: [] } }));
    expect(t.get('browser: longest task switching panels under load')).toMatchObject({
      value: undefined,
      met: undefined,
    });
    expect(t.get('browser: search over 10k keys, to the painted frame')?.met).toBeUndefined();
    expect(t.get('browser: frames per second, every panel under load')).toMatchObject({ value: 59, met: true });
  });

  it('judges the window back on a panel with the others kept like the panel windows', () => {
    const memory = { heapBytes: 20e6, domNodes: 3000 };
    const kept = { panel: 'overview', fps: 45, longTasks: 1, maxLongTaskMs: 130, alone: memory, after: memory };
    const t = byWhat(figures({ kept }));
    expect(t.get('browser: frames per second, every panel under load')).toMatchObject({ value: 45, met: false });
    expect(t.get('browser: longest task on a panel under load')).toMatchObject({ value: 130, met: false });
    expect(browserLines(figures({ kept })).join('\n')).toMatch(
      /back on the overview after the switches\s+45\.0 fps \(≥ 50: NOT met\)/,
    );
  });

  it('judges a fps window below the goal and a first render over a second', () => {
    const t = byWhat(figures({ panels: [panel('overview', 42, 0)], firstRenderMs: 1200 }));
    expect(t.get('browser: frames per second, every panel under load')?.met).toBe(false);
    expect(t.get('browser: first render of the overview')?.met).toBe(false);
  });
});

describe('browserLines', () => {
  it('prints one line per panel switched to beside the targets table', () => {
    const text = browserLines(
      figures({
        switches: [
          click('indexer', 'overview', 40, 0),
          click('workqueue', 'overview', 120, 0),
          click('overview', 'controller', 30, 0),
        ],
      }),
    ).join('\n');
    expect(text).toMatch(/→ overview\s+click → paint\s+120 ms median,\s+120 slowest \(≤ 100: NOT met\).*2 clicks/);
    expect(text).toMatch(/→ controller\s+click → paint\s+30 ms median.*\(≤ 100: met\).*1 clicks/);
    expect(text).toMatch(
      /\| browser: click → new panel painted, slowest click\s+\|\s+120 ms \| ≤ 100 ms\s+\| NOT MET \|/,
    );
  });
});
