// The map names what the events say: the FIFO the informer reported using (not always "DeltaFIFO"), every lane
// by its full name, and which controllers each informer feeds.
import { describe, expect, it } from 'vitest';
import type { StampedEvent } from '../../../shared/protocol/events';
import { reduce } from '../../../shared/protocol/reduce';
import { createView } from '../../../shared/protocol/view';
import { renderText, storeWith } from '../../fixtures/render';
import { Overview } from './Overview';
import { buildPipeline, feedEdges } from './overview-series';

const T0 = Date.UTC(2026, 0, 1);
let seq = 0;
const at = <E extends object>(e: E) => ({ ...e, seq: ++seq, ts: T0 + seq }) as unknown as StampedEvent;

// Synthetic: one informer on RealFIFO beside one on DeltaFIFO; the recorded manager uses one FIFO type for all.
const view = reduce(createView(), [
  at({ kind: 'informer.lifecycle', informer: 'v1/Pod', phase: 'started', fifo: 'RealFIFO' }),
  at({ kind: 'informer.lifecycle', informer: 'v1/Pod', phase: 'handlerAdded', handler: 'replicaset-owner/owner' }),
  at({ kind: 'informer.lifecycle', informer: 'apps/v1/ReplicaSet', phase: 'started', fifo: 'DeltaFIFO' }),
  at({
    kind: 'controller.lifecycle',
    controller: 'replicaset-owner',
    phase: 'started',
    workers: 2,
    forKind: 'apps/v1/ReplicaSet',
  }),
]);

describe('overview map', () => {
  const t = renderText(<Overview view={view} now={view.lastTs} route={{ panel: 'overview' }} />, storeWith(view));

  it('names the FIFO each informer reported', () => {
    const lanes = buildPipeline(view).informers;
    expect(lanes.find((l) => l.id === 'v1/Pod')?.fifo).toBe('RealFIFO');
    expect(lanes.find((l) => l.id === 'apps/v1/ReplicaSet')?.fifo).toBe('DeltaFIFO');
    expect(t).toContain('v1/Pod · RealFIFO');
    expect(t).toContain('apps/v1/ReplicaSet · DeltaFIFO');
  });

  it('shows lanes by their full names and which controllers each informer feeds', () => {
    expect(feedEdges(buildPipeline(view))).toEqual(
      expect.arrayContaining([
        { informer: 'apps/v1/ReplicaSet', controller: 'replicaset-owner' },
        { informer: 'v1/Pod', controller: 'replicaset-owner' },
      ]),
    );
    expect(t).toContain('replicaset-owner · fed by');
    expect(t).toContain('feeds replicaset-owner');
  });
});
