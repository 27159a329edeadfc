import { describe, expect, it } from 'vitest';
import type { ControllerView, KeyView } from '../../../shared/protocol/view';
import { newController, newKey } from '../../../shared/protocol/reduce-controller';
import { recordedView } from '../../fixtures/recorded-view';
import { depthSeries, keyRow, keyRows, stateCounts } from './workqueue-series';

// Synthetic: keys in chosen states at chosen times (waiting with a retry due, dirty while processing); the
// runtime passes through them in milliseconds, so a recording catches them only by chance.
function controllerWith(keys: Partial<KeyView>[]): ControllerView {
  const c = newController('c', 0);
  for (const k of keys) c.keys[k.key as string] = { ...newKey(k.key as string, 0), ...k };
  c.keyCount = keys.length;
  return c;
}

describe('keyRows', () => {
  const now = 10_000;
  const c = controllerWith([
    { key: 'ns/idle', state: 'idle', stateSince: 9000 },
    { key: 'ns/later', state: 'waiting', nextRetryAt: 18_000, requeues: 4 },
    { key: 'ns/soon', state: 'waiting', nextRetryAt: 12_000, requeues: 2 },
    { key: 'ns/busy', state: 'processing', stateSince: 9500, dirty: true },
    { key: 'ns/ready', state: 'ready' },
  ]);

  it('orders the most urgent first: processing, ready, waiting by soonest retry, then idle', () => {
    expect(keyRows(c, now, 'all').map((r) => r.key)).toEqual(['ns/busy', 'ns/ready', 'ns/soon', 'ns/later', 'ns/idle']);
  });

  it('keeps the last backoff of a key whose retry already ran', () => {
    const k = {
      ...newKey('ns/flaky', 0),
      backoff: [{ seq: 9, ts: 9_000, requeues: 3, delayMs: 20, readyAt: 9_020, cause: 'errorBackoff' as const }],
    };
    expect(keyRow(k, now, false).lastBackoff).toEqual({ delayMs: 20, requeues: 3 });
    expect(keyRow(newKey('ns/fine', 0), now, false).lastBackoff).toBeUndefined();
  });

  it('counts down to the next retry', () => {
    const row = keyRows(c, now, 'waiting').find((r) => r.key === 'ns/soon');
    expect(row?.retryInMs).toBe(2000);
  });

  it('filters by state, retrying and search', () => {
    expect(keyRows(c, now, 'queued').map((r) => r.key)).not.toContain('ns/idle');
    expect(keyRows(c, now, 'retrying').map((r) => r.key)).toEqual(['ns/soon', 'ns/later']);
    expect(keyRows(c, now, 'all', 'bus').map((r) => r.key)).toEqual(['ns/busy']);
  });

  it('groups pending causes by type', () => {
    const k = {
      ...newKey('ns/a', 0),
      pendingCauses: [{ type: 'event' as const }, { type: 'event' as const }, { type: 'errorBackoff' as const }],
    };
    expect(keyRow(k, 0, false).pending).toEqual({ event: 2, errorBackoff: 1 });
  });

  it('does not count a key that gave up (idle after a terminal error) as retrying', () => {
    const gaveUp = controllerWith([
      { key: 'ns/terminal', state: 'idle', requeues: 5 },
      { key: 'ns/backoff', state: 'waiting', nextRetryAt: 10_160, requeues: 5 },
      { key: 'ns/retry-running', state: 'processing', requeues: 2 },
    ]);
    expect(keyRows(gaveUp, now, 'retrying').map((r) => r.key)).toEqual(['ns/retry-running', 'ns/backoff']);
    expect(stateCounts(gaveUp).retrying).toBe(2);
  });

  it('counts keys per state', () => {
    // ns/busy was re-added while processing: the queue counts it ready again, and so do the filters.
    expect(stateCounts(c)).toMatchObject({ waiting: 2, processing: 1, ready: 2, queued: 4, idle: 1, retrying: 2 });
  });
});

describe('depthSeries', () => {
  it('has one point per series bucket with the three depth parts', () => {
    const c = recordedView().controllers['flaky'] as ControllerView;
    const pts = depthSeries(c);
    expect(pts.length).toBe(c.series.length);
    expect(Object.keys(pts[0] ?? {})).toEqual(['t', 'ready', 'waiting', 'processing', 'adds']);
    expect(pts.some((p) => (p.waiting ?? 0) > 0)).toBe(true);
  });
});
