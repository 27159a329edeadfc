// The top bar and the banner say when an attached process is gone, instead of LIVE over its last state.
import { describe, expect, it } from 'vitest';
import type { RuntimeEvent, StampedEvent } from '../../shared/protocol/events';
import { reduce } from '../../shared/protocol/reduce';
import { createView } from '../../shared/protocol/view';
import { renderText } from '../fixtures/render';
import { GoneProcessesBanner, statusPill } from './Banner';

// Synthetic: a killed attached process needs a Go manager and a kill; the recording runs in-process.
const run = (events: RuntimeEvent[]) =>
  reduce(
    createView(),
    events.map((e, i) => ({ ...e, seq: i + 1, ts: 1000 + i }) as StampedEvent),
  );
const connected = (process: string): RuntimeEvent => ({
  kind: 'bridge.process',
  process,
  address: `${process}:7071`,
  phase: 'connected',
});
const gone = (process: string): RuntimeEvent => ({
  kind: 'bridge.process',
  process,
  address: `${process}:7071`,
  phase: 'gone',
  reason: 'no data for 10000 ms',
});
const live = { state: 'live' } as const;

describe('statusPill', () => {
  it('reads LIVE only while the attached processes are there', () => {
    expect(statusPill(live, run([connected('a')])).text).toBe('LIVE');
    expect(statusPill(live, run([connected('a'), gone('a')]))).toEqual({ tone: 'err', text: 'PROCESS GONE' });
    expect(statusPill(live, run([connected('a'), connected('b'), gone('a')]))).toEqual({
      tone: 'warn',
      text: 'LIVE · 1 OF 2 GONE',
    });
    expect(statusPill(live, createView()).text).toBe('LIVE');
  });
});

describe('GoneProcessesBanner', () => {
  it('names the gone process, for how long and why', () => {
    const view = run([connected('a'), gone('a')]);
    const text = renderText(<GoneProcessesBanner view={view} now={view.lastTs + 12_000} />);
    expect(text).toContain('Process a is gone');
    expect(text).toContain('no data for 10000 ms');
    expect(text).toContain('12');
  });
});
