// Hot-loop evidence names the exact write behind each re-trigger, even with several writes in flight.
import { describe, expect, it } from 'vitest';
import type { RuntimeEvent, StampedEvent } from './events';
import { reduce } from './reduce';
import { createView } from './view';

function stamp(events: RuntimeEvent[]): StampedEvent[] {
  return events.map((e, i) => ({ ...e, seq: i + 1, ts: 1000 + i * 10 }) as StampedEvent);
}

const ref = (rv: string) => ({ gvk: 'v1/Pod', namespace: 'ns', name: 'a', resourceVersion: rv });

describe('self-caused reconciles', () => {
  it('match an event to the write that produced its resourceVersion, not merely the latest write', () => {
    const depth = { ready: 0, waiting: 0, processing: 1 };
    const view = reduce(
      createView(),
      stamp([
        { kind: 'reconcile.start', controller: 'c', key: 'ns/a', worker: 0, causes: [], attempt: 1 },
        {
          kind: 'client.request',
          controller: 'c',
          verb: 'updateStatus',
          ref: ref('10'),
          cached: false,
          durationMs: 1,
          code: 200,
        },
        {
          kind: 'client.request',
          controller: 'c',
          verb: 'patch',
          ref: ref('11'),
          cached: false,
          durationMs: 1,
          code: 200,
        },
        { kind: 'reconcile.end', controller: 'c', key: 'ns/a', worker: 0, durationMs: 5, outcome: 'success' },
        { kind: 'queue.done', queue: 'c', key: 'ns/a', processingMs: 5, requeued: false, depth },
        {
          kind: 'reconcile.start',
          controller: 'c',
          key: 'ns/a',
          worker: 0,
          causes: [{ type: 'event', eventType: 'update', source: ref('10') }],
          attempt: 1,
        },
      ]),
    );
    const rec = view.controllers['c']?.keys['ns/a']?.lastReconcile;
    expect(rec?.selfCaused).toBe(true);
    expect(rec?.selfCause?.write).toMatchObject({ seq: 2, ts: 1010, verb: 'updateStatus', ref: ref('10') });
  });

  it('fall back to the latest write when no resourceVersion matches', () => {
    const view = reduce(
      createView(),
      stamp([
        { kind: 'client.request', controller: 'c', verb: 'update', ref: ref('20'), cached: false, durationMs: 1 },
        {
          kind: 'reconcile.start',
          controller: 'c',
          key: 'ns/a',
          worker: 0,
          causes: [{ type: 'event', eventType: 'update', source: ref('99') }],
          attempt: 1,
        },
      ]),
    );
    expect(view.controllers['c']?.keys['ns/a']?.lastReconcile?.selfCause?.write.ref.resourceVersion).toBe('20');
  });
});
