import { describe, expect, it } from 'vitest';
import type { StampedEvent } from '../../shared/protocol/events';
import { describeEvent } from './describe-event';

const at = { seq: 1, ts: 0 };
const ref = { gvk: 'v1/Pod', namespace: 'ns', name: 'a', resourceVersion: '7' };

describe('describeEvent', () => {
  it('says in words what each block did, naming the block', () => {
    const cases: [StampedEvent, string, string][] = [
      [
        { ...at, kind: 'reflector.event', informer: 'v1/Pod', type: 'MODIFIED', ref },
        'Reflector',
        'watch delivered MODIFIED v1/Pod ns/a at rv 7',
      ],
      [
        {
          ...at,
          kind: 'queue.add',
          queue: 'c',
          key: 'ns/a',
          cause: { type: 'event' },
          queued: false,
          dirtyWhileProcessing: false,
          depth: { ready: 1, waiting: 0, processing: 0 },
        },
        'Workqueue',
        'c: add (event) — already queued, de-duplicated',
      ],
      [
        {
          ...at,
          kind: 'reconcile.end',
          controller: 'c',
          key: 'ns/a',
          worker: 0,
          durationMs: 12.345,
          outcome: 'error',
          error: 'boom',
        },
        'Reconciler',
        'c: Reconcile returned error after 12.3ms: boom',
      ],
      [
        {
          ...at,
          kind: 'handler.event',
          controller: 'c',
          handler: 'H',
          eventType: 'update',
          ref,
          keys: [],
          filteredBy: 'GenerationChanged',
        },
        'Handler',
        'c: H update filtered out by GenerationChanged',
      ],
    ];
    for (const [ev, block, text] of cases) expect(describeEvent(ev)).toEqual({ block, text });
  });

  it('says a cached read never reached the API server, and leaves lifecycle events undescribed', () => {
    expect(
      describeEvent({ ...at, kind: 'client.request', verb: 'get', ref, cached: true, durationMs: 0 })?.text,
    ).toMatch(/read from the informer's cache \(no request to the API server\)/);
    expect(describeEvent({ ...at, kind: 'manager.lifecycle', phase: 'started' })).toBeUndefined();
  });

  it('says a read that found nothing is an answer, not an error', () => {
    const nf = {
      ...at,
      kind: 'client.request',
      verb: 'get',
      ref,
      durationMs: 0,
      code: 404,
      error: 'not found',
    } as const;
    expect(describeEvent({ ...nf, cached: true })?.text).toMatch(/: not found \(an answer, not an error\)$/);
    expect(describeEvent({ ...nf, cached: false })?.text).toMatch(/→ 404 NotFound \(an answer, not an error\)$/);
  });
});
