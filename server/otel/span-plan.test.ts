import { describe, expect, it } from 'vitest';
import type { StampedEvent } from '../../shared/protocol/events';
import { OTEL_ATTR, OTEL_LINK, OTEL_SPAN } from '../../shared/protocol/otel-names';
import { writeSpanRef } from './span-ids';
import { SpanPlanner, type SpanPlan } from './span-plan';

const depth = { ready: 0, waiting: 0, processing: 0 };
const cm = (name: string, uid: string, rv: string) => ({
  gvk: 'v1/ConfigMap',
  namespace: 'default',
  name,
  uid,
  resourceVersion: rv,
});
let seq = 0;
const at = (ts: number, ev: object): StampedEvent => ({ ...ev, seq: ++seq, ts }) as StampedEvent;

function reconcileOnce(extra: StampedEvent[] = []): SpanPlan[] {
  const spans: SpanPlan[] = [];
  const p = new SpanPlanner((s) => spans.push(s));
  const cause = { type: 'event', eventType: 'update', source: cm('a', 'u1', '5') };
  for (const ev of [
    at(100, {
      kind: 'queue.add',
      queue: 'c',
      key: 'default/a',
      cause,
      queued: true,
      dirtyWhileProcessing: false,
      depth,
    }),
    at(104, {
      kind: 'queue.add',
      queue: 'c',
      key: 'default/a',
      cause,
      queued: false,
      dirtyWhileProcessing: false,
      depth,
    }),
    at(110, {
      kind: 'reconcile.start',
      controller: 'c',
      key: 'default/a',
      worker: 1,
      causes: [cause],
      attempt: 1,
      reconcileId: 'r1',
    }),
    at(120, {
      kind: 'client.request',
      verb: 'get',
      ref: cm('b', 'u2', '6'),
      cached: true,
      durationMs: 0,
      reconcileId: 'r1',
    }),
    at(125, {
      kind: 'client.request',
      verb: 'update',
      ref: cm('b', 'u2', '7'),
      cached: false,
      durationMs: 3,
      code: 200,
      reconcileId: 'r1',
    }),
    at(130, {
      kind: 'reconcile.end',
      controller: 'c',
      key: 'default/a',
      worker: 1,
      durationMs: 20,
      outcome: 'success',
      reconcileId: 'r1',
    }),
    ...extra,
  ])
    p.observe(ev);
  return spans;
}

describe('SpanPlanner', () => {
  it('derives a write’s ids from uid and resourceVersion (the vector go/otel_test.go checks too)', () => {
    expect(writeSpanRef('uid-1', '42')).toEqual({
      traceId: 'b0efe2996a6b59c319bc1f27a03ba8de',
      spanId: 'b94aecff9743034d',
    });
  });

  it('makes a write span, a reconcile span linked to its cause and its write, and the queue wait under it', () => {
    const [write, rec, wait] = reconcileOnce();
    expect(write).toMatchObject({ name: OTEL_SPAN.write, ...writeSpanRef('u2', '7'), startMs: 122, endMs: 125 });
    expect(write!.parentSpanId).toBeUndefined();
    expect(write!.attributes).toMatchObject({
      [OTEL_ATTR.verb]: 'update',
      [OTEL_ATTR.objectResourceVersion]: '7',
      [OTEL_ATTR.controller]: 'c',
    });
    expect(write!.links).toEqual([
      { traceId: rec!.traceId, spanId: rec!.spanId, attributes: { [OTEL_ATTR.link]: OTEL_LINK.madeBy } },
    ]);

    expect(rec).toMatchObject({ name: OTEL_SPAN.reconcile, startMs: 110, endMs: 130 });
    expect(rec!.attributes).toMatchObject({
      [OTEL_ATTR.controller]: 'c',
      [OTEL_ATTR.key]: 'default/a',
      [OTEL_ATTR.reconcileId]: 'r1',
      [OTEL_ATTR.result]: 'success',
      [OTEL_ATTR.attempt]: 1,
    });
    expect(rec!.links.map((l) => [l.spanId, l.attributes[OTEL_ATTR.link]])).toEqual([
      [writeSpanRef('u1', '5').spanId, OTEL_LINK.cause],
      [write!.spanId, OTEL_LINK.wrote],
    ]);
    expect(rec!.links[0]!.attributes).toMatchObject({
      [OTEL_ATTR.eventType]: 'update',
      [OTEL_ATTR.objectResourceVersion]: '5',
    });

    expect(wait).toMatchObject({
      name: OTEL_SPAN.queueWait,
      traceId: rec!.traceId,
      parentSpanId: rec!.spanId,
      startMs: 100,
      endMs: 110,
    });
  });

  it('links a retry to the previous reconcile of the key, and keeps a failed write inside its reconcile', () => {
    const backoff = { type: 'errorBackoff', detail: 'boom' };
    const spans = reconcileOnce([
      at(140, {
        kind: 'queue.addAfter',
        queue: 'c',
        key: 'default/a',
        cause: backoff,
        delayMs: 5,
        readyAt: 145,
        depth,
      }),
      at(146, {
        kind: 'reconcile.start',
        controller: 'c',
        key: 'default/a',
        worker: 1,
        causes: [backoff],
        attempt: 2,
        reconcileId: 'r2',
      }),
      at(150, {
        kind: 'client.request',
        verb: 'update',
        ref: cm('b', 'u2', ''),
        cached: false,
        durationMs: 1,
        code: 409,
        error: 'conflict',
        reconcileId: 'r2',
      }),
      at(151, {
        kind: 'reconcile.end',
        controller: 'c',
        key: 'default/a',
        worker: 1,
        durationMs: 5,
        outcome: 'error',
        error: 'conflict',
        reconcileId: 'r2',
      }),
    ]);
    const first = spans[1]!;
    const [failed, second] = spans.slice(3);
    expect(second!.links[0]).toEqual({
      traceId: first.traceId,
      spanId: first.spanId,
      attributes: { [OTEL_ATTR.link]: OTEL_LINK.retry, [OTEL_ATTR.causeType]: 'errorBackoff' },
    });
    expect(second).toMatchObject({
      error: 'conflict',
      attributes: { [OTEL_ATTR.attempt]: 2, [OTEL_ATTR.result]: 'error' },
    });
    expect(failed).toMatchObject({
      name: OTEL_SPAN.write,
      traceId: second!.traceId,
      parentSpanId: second!.spanId,
      error: 'conflict',
    });
  });
});
