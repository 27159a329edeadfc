import { describe, expect, it } from 'vitest';
import type { KeyView, RuntimeView } from '../../../shared/protocol/view';
import { recordedView } from '../../fixtures/recorded-view';
import { renderText } from '../../fixtures/render';
import { backoffRows, defaultBackoffMs } from './BackoffHistory';
import { Trace } from './Trace';

/** A key of the flaky controller that failed and was retried (the recording always has one). */
function retriedKey(v: RuntimeView): KeyView {
  const k = Object.values(v.controllers.flaky?.keys ?? {}).find((x) => (x.backoff?.length ?? 0) > 0);
  if (!k) throw new Error('the recording has no flaky key with a backoff; regenerate it');
  return k;
}

function render(view: RuntimeView, controller: string, key: string, now = view.lastTs): string {
  return renderText(<Trace view={view} route={{ panel: 'trace', controller, key }} now={now} />);
}

// The recorded view is edited where a test needs a key at an exact millisecond of its backoff (a countdown,
// a history of long-over retries): the runtime's timing cannot be pinned that precisely.
describe('Trace panel', () => {
  it('shows a round trip inside one millisecond as "<1ms", never "0µs"', () => {
    const v = structuredClone(recordedView());
    const h = v.controllers['hot-loop']?.hotLoops[0];
    const e = h?.evidence[0];
    if (!h || !e?.write) throw new Error('the recording has a hot loop with evidence');
    e.ts = e.write.ts;
    const k = v.controllers['hot-loop']?.keys[h.key];
    if (k) k.hotLoop = h;
    const t = render(v, 'hot-loop', h.key);
    expect(t).toContain('round trip');
    expect(t).toContain('<1ms');
    expect(t).not.toMatch(/\b0µs/);
  });

  it('counts a backoff down in whole milliseconds and names the attempt it will be', () => {
    const v = structuredClone(recordedView());
    const k = retriedKey(v);
    Object.assign(k, { state: 'waiting', stateSince: 1_000, requeues: 3, nextRetryAt: 1_040 });
    const t = render(v, 'flaky', k.key, 1_000);
    expect(t).toContain('in 40ms');
    expect(t).toContain('backoff: attempt 4 after 3 rate-limited requeues');
  });

  it('shows the backoff history of a key whose 5–40 ms backoffs are long over, against the limiter formula', () => {
    const v = structuredClone(recordedView());
    const k = retriedKey(v);
    Object.assign(k, {
      state: 'idle',
      requeues: 0,
      backoffResetAt: 1_200,
      backoff: [5, 10, 20, 40].map((delayMs, i) => ({
        seq: 100 + i,
        ts: 1_000 + i * 50,
        requeues: i + 1,
        delayMs,
        readyAt: 1_000 + i * 50 + delayMs,
        cause: 'errorBackoff',
        error: `conflict ${i + 1}`,
      })),
    });
    delete k.nextRetryAt;
    const t = render(v, 'flaky', k.key, 60_000);
    expect(t).toContain('Error backoff');
    expect(t).toContain('5ms · 2^(n−1)');
    expect(t).toMatch(/4 40ms 40ms .* conflict 4/);
    expect(t).toContain('conflict 1');
    expect(t).not.toContain('sets its own rate limiter');
    expect(t).toContain('Last forgotten at');
  });

  it('says when the delays are not the default limiter', () => {
    expect(
      backoffRows({
        backoff: [{ seq: 1, ts: 0, requeues: 3, delayMs: 1000, readyAt: 1000, cause: 'errorBackoff' }],
      } as never)[0],
    ).toMatchObject({ expectedMs: 20, matchesDefault: false });
    expect(defaultBackoffMs(1)).toBe(5);
    expect(defaultBackoffMs(40)).toBe(1_000_000);
  });

  it('does not call a RequeueAfter delay a backoff', () => {
    const v = structuredClone(recordedView());
    const k = retriedKey(v);
    Object.assign(k, { state: 'waiting', stateSince: 1_000, requeues: 0, nextRetryAt: 6_000 });
    const t = render(v, 'flaky', k.key, 1_000);
    expect(t).toContain('in 5.00s');
    expect(t).not.toContain('backoff:');
    expect(t).not.toContain('after 0');
  });
});
