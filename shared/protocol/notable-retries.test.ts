// A key failing again and again makes one notable entry, not one per retry; a fresh failure after a success
// makes a new one.
import { describe, expect, it } from 'vitest';
import type { RuntimeEvent, StampedEvent } from './events';
import { reduce } from './reduce';
import { createView } from './view';

function attempt(outcome: 'error' | 'success', n: number): RuntimeEvent[] {
  return [
    {
      kind: 'reconcile.start',
      controller: 'c',
      key: 'ns/a',
      worker: 0,
      causes: [{ type: 'errorBackoff' }],
      attempt: n,
    },
    {
      kind: 'reconcile.end',
      controller: 'c',
      key: 'ns/a',
      worker: 0,
      durationMs: 3,
      outcome,
      ...(outcome === 'error' ? { error: 'conflict' } : {}),
    },
  ];
}

describe('reconcile error notables', () => {
  it('are reported once per run of failures of a key', () => {
    const events = [
      ...attempt('error', 1),
      ...attempt('error', 2),
      ...attempt('error', 3),
      ...attempt('success', 4),
      ...attempt('error', 1),
    ].map((e, i) => ({ ...e, seq: i + 1, ts: 1000 + i }) as StampedEvent);
    const view = reduce(createView(), events);
    expect(view.notable.filter((n) => n.text.includes('reconcile error')).map((n) => n.seq)).toEqual([2, 10]);
  });
});
