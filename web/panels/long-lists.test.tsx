// Long lists stay whole and say how long they are: the indexer's keys, the queue's keys and the pending
// deltas are virtualized (a screenful in the DOM) with a count of what the list holds, and the queue counts a
// key re-added while processing where the queue itself counts it, so the Overview and the Workqueue agree.
import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import type { StampedEvent } from '../../shared/protocol/events';
import { reduce } from '../../shared/protocol/reduce';
import { createView } from '../../shared/protocol/view';
import { VirtualTable } from '../components/VirtualTable';
import { renderText, storeWith } from '../fixtures/render';
import { Indexer } from './indexer/Indexer';
import { Overview } from './overview/Overview';
import { Workqueue } from './workqueue/Workqueue';

const T0 = Date.UTC(2026, 0, 1);

/** A controller "c" for v1/Pod with n idle keys, each added and reconciled once, plus extra events. */
function viewWithKeys(
  n: number,
  extra: (seq: () => number) => StampedEvent[] = () => [],
): ReturnType<typeof createView> {
  let seq = 0;
  const next = () => ++seq;
  const depth = { ready: 0, waiting: 0, processing: 0 };
  const events: StampedEvent[] = [
    {
      kind: 'controller.lifecycle',
      controller: 'c',
      phase: 'started',
      workers: 1,
      forKind: 'v1/Pod',
      seq: next(),
      ts: T0,
    },
    {
      kind: 'reflector.state',
      informer: 'v1/Pod',
      from: 'idle',
      to: 'listing',
      reason: 'initial',
      seq: next(),
      ts: T0,
    },
  ] as StampedEvent[];
  for (let i = 0; i < n; i++) {
    const key = `ns/pod-${String(i).padStart(5, '0')}`;
    events.push(
      {
        kind: 'queue.add',
        queue: 'c',
        key,
        cause: { type: 'event', eventType: 'create' },
        queued: true,
        dirtyWhileProcessing: false,
        depth: { ...depth, ready: 1 },
        seq: next(),
        ts: T0 + i,
      },
      { kind: 'queue.get', queue: 'c', key, waitMs: 0, depth: { ...depth, processing: 1 }, seq: next(), ts: T0 + i },
      { kind: 'queue.done', queue: 'c', key, processingMs: 1, requeued: false, depth, seq: next(), ts: T0 + i },
    );
  }
  events.push(...extra(next));
  // Synthetic: thousands of keys, far more than the recording holds (it is kept small on purpose).
  return reduce(createView(), events);
}

describe('long lists', () => {
  it('a virtual table renders a screenful of 5,014 rows and says it holds 5,014', () => {
    const rows = Array.from({ length: 5014 }, (_, i) => `k${i}`);
    const html = renderToString(
      <VirtualTable rows={rows} noun="keys" height={560}>
        {(k) => (
          <tr key={k}>
            <td>{k}</td>
          </tr>
        )}
      </VirtualTable>,
    );
    const shown = html.match(/<td>k\d+<\/td>/g) ?? [];
    expect(shown.length).toBeGreaterThan(10);
    expect(shown.length).toBeLessThan(100);
    expect(html).toContain('5,014 keys');
  });

  it('a list the server cut says so', () => {
    const html = renderToString(
      <VirtualTable rows={['a', 'b']} total={5014} noun="keys" height={100}>
        {(k) => (
          <tr key={k}>
            <td>{k}</td>
          </tr>
        )}
      </VirtualTable>,
    );
    expect(html).toContain('2 of 5,014 keys shown');
  });

  it('indexer: every known key is listed, not the first 500, with their count', () => {
    const view = viewWithKeys(1200);
    const t = renderText(
      <Indexer view={view} now={view.lastTs} route={{ panel: 'indexer', informer: 'v1/Pod' }} />,
      storeWith(view),
    );
    expect(t).toContain('1,200 keys');
  });

  it('workqueue: every key is listed, not the first 300, with their count', () => {
    const view = viewWithKeys(2000);
    const t = renderText(
      <Workqueue view={view} now={view.lastTs} route={{ panel: 'workqueue', controller: 'c' }} />,
      storeWith(view),
    );
    expect(t).toContain('2,000 keys');
  });

  it('a key re-added while processing counts as queued in the Overview and the Workqueue alike', () => {
    const view = viewWithKeys(
      3,
      (next) =>
        [
          {
            kind: 'queue.add',
            queue: 'c',
            key: 'ns/pod-00001',
            cause: { type: 'event', eventType: 'update' },
            queued: true,
            dirtyWhileProcessing: false,
            depth: { ready: 1, waiting: 0, processing: 0 },
            seq: next(),
            ts: T0 + 10,
          },
          {
            kind: 'queue.get',
            queue: 'c',
            key: 'ns/pod-00001',
            waitMs: 0,
            depth: { ready: 0, waiting: 0, processing: 1 },
            seq: next(),
            ts: T0 + 11,
          },
          {
            kind: 'queue.add',
            queue: 'c',
            key: 'ns/pod-00001',
            cause: { type: 'event', eventType: 'update' },
            queued: false,
            dirtyWhileProcessing: true,
            depth: { ready: 1, waiting: 0, processing: 1 },
            seq: next(),
            ts: T0 + 12,
          },
        ] as StampedEvent[],
    );
    const store = storeWith(view);
    const ov = renderText(<Overview view={view} now={view.lastTs} route={{ panel: 'overview' }} />, store);
    const wq = renderText(
      <Workqueue view={view} now={view.lastTs} route={{ panel: 'workqueue', controller: 'c' }} />,
      store,
    );
    expect(ov).toContain('Queued keys 1');
    expect(wq).toContain('Depth (ready) 1');
    expect(wq).toContain('queued 1');
    expect(wq).toContain('ready 1');
  });
});
