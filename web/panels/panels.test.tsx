// Every panel rendered from a recording of the real product (scripts/record-ui-fixtures.ts: the example
// controllers on the sandbox, a 410 and a closed watch injected, reduced by the shared reducer): the key
// facts a user looks for must be on screen, and empty views must explain themselves. The assertions hold
// for any such recording (they read names and numbers from the view, never a count written down here).
import { describe, expect, it } from 'vitest';
import { createView } from '../../shared/protocol/view';
import type { Route } from '../client/route';
import { recordedSession, recordedView } from '../fixtures/recorded-view';
import { renderText, storeWith } from '../fixtures/render';
import { Controller } from './controller/Controller';
import { DeltaFifo } from './delta-fifo/DeltaFifo';
import { Faults } from './faults/Faults';
import { Indexer } from './indexer/Indexer';
import { Learn } from './learn/Learn';
import { Overview } from './overview/Overview';
import { Reflector } from './reflector/Reflector';
import { Trace } from './trace/Trace';
import { Workqueue } from './workqueue/Workqueue';

const view = recordedView();
const now = view.lastTs;
const store = storeWith(view);
const pods = view.informers['v1/Pod'];
const flaky = view.controllers['flaky'];
const hotLoop = view.controllers['hot-loop']?.hotLoops[0];
const informerCount = Object.keys(view.informers).length;
const at = (route: Partial<Route> = {}) => ({ view, now, route: { panel: 'overview' as const, ...route } });

describe('the recording holds what the panels must show', () => {
  it('the Pod reflector went watching → backoff → relisting → watching on the injected 410, with tombstones', () => {
    const t = pods?.counters.transitions;
    expect(t?.['watching→backoff']).toBeGreaterThan(0);
    expect(t?.['backoff→relisting']).toBeGreaterThan(0);
    expect(t?.['relisting→watching']).toBeGreaterThan(0);
    expect(t?.['watching→relisting'] ?? 0).toBe(0);
    expect(pods?.counters.expired).toBeGreaterThan(0);
    expect(pods?.counters.relistDeleted).toBeGreaterThan(0);
    expect(pods?.state).toBe('watching');
  });

  it('the closed ConfigMap watch was reopened without a relist', () => {
    const cm = view.informers['v1/ConfigMap'];
    expect(cm?.counters.watches).toBeGreaterThan(1);
    expect(cm?.counters.relists).toBe(0);
    expect(cm?.state).toBe('watching');
  });

  it('the flaky controller failed, backed off and asked for RequeueAfter; the hot loop has write evidence', () => {
    expect(flaky?.reconciles.error).toBeGreaterThan(0);
    expect(flaky?.retries).toBeGreaterThan(0);
    expect(flaky?.reconciles.requeueAfter).toBeGreaterThan(0);
    expect(hotLoop?.evidence.some((e) => e.write !== undefined)).toBe(true);
  });
});

describe('panels over a recorded session', () => {
  it('overview: every block of the pipeline with live numbers and the notable log', () => {
    const t = renderText(<Overview {...at()} />, store);
    for (const s of ['Reflector', 'DeltaFIFO', 'Indexer', 'Handlers', 'Workqueue', 'Workers', 'Reconciler'])
      expect(t).toContain(s);
    expect(t).toContain('watching');
    expect(t).toContain('hot loop');
    expect(t).toContain(`${view.informers['v1/Pod']?.storeSize} objects cached`);
    expect(t).toContain(`Informers synced ${informerCount}/${informerCount}`);
    expect(t).toContain('Manager started');
    expect(t).toMatch(/410|relist/i);
  });

  it('reflector: current state, 410 and relist in the session history', () => {
    const t = renderText(<Reflector {...at({ informer: 'v1/Pod' })} />, store);
    expect(t).toContain('State watching');
    expect(t).toContain('410 GONE');
    expect(t).toContain('RELIST');
    expect(t).toContain(`Relist tombstones ${pods?.counters.relistDeleted}`);
    expect(t).toMatch(/BACKOFF.*410 GONE/);
  });

  it('delta-fifo: queue length and the delta mix', () => {
    const t = renderText(<DeltaFifo {...at({ informer: 'v1/Pod' })} />, store);
    expect(t).toContain('Queue length');
    expect(t).toContain('Replaced');
    expect(t).toMatch(/Pending deltas per key/);
    // The recording's informers run RealFIFO, which pops one delta at a time: never "accumulated".
    expect(pods?.fifo).toBe('RealFIFO');
    expect(t).toContain('each pop hands the oldest queued delta');
    expect(t).not.toContain('accumulated deltas');
  });

  it('indexer: store size and the keys known without a server', () => {
    const t = renderText(<Indexer {...at({ informer: 'v1/Pod' })} />, store);
    expect(t).toContain('Objects cached');
    const cached = lastPodWrite();
    expect(t).toContain(cached);
    expect(t).toContain('Recent cache writes');
  });

  it('workqueue: depth parts, retries and per-key rows with backoff', () => {
    const t = renderText(<Workqueue {...at({ controller: 'flaky' })} />, store);
    expect(t).toContain('Depth (ready)');
    expect(t).toContain('Retries');
    expect(t).toContain('errorBackoff');
    const retried = Object.values(flaky?.keys ?? {}).find((k) => (k.backoff?.length ?? 0) > 0);
    expect(retried).toBeDefined();
    expect(t).toContain(retried?.key);
  });

  it('controller: outcomes, histogram metric, workers and step mode', () => {
    const t = renderText(<Controller {...at({ controller: 'flaky' })} />, store);
    expect(t).toContain('Controller “flaky”');
    expect(t).toContain('controller_runtime_reconcile_time_seconds');
    expect(t).toContain('terminalError');
    expect(t).toContain(`last error: ${lastFlakyError()}`);
    expect(t).toContain('Step debugger');
    expect(t).toContain('Not connected to a server');
  });

  it('trace: hot-loop evidence with the write that re-triggered the key', () => {
    const t = renderText(<Trace {...at({ controller: 'hot-loop', key: hotLoop?.key })} />, store);
    const write = hotLoop?.evidence.find((e) => e.write)?.write;
    expect(t).toContain('Hot loop detected');
    expect(t).toContain(`${write?.verb} ${write?.ref.gvk} ${hotLoop?.key}`);
    expect(t).toContain('self-caused');
    expect(t).toContain('triggered by its own write');
  });

  it('faults: the form and the workload controls, disabled without a connection', () => {
    const t = renderText(<Faults {...at()} />, store);
    expect(t).toContain('Inject a fault');
    expect(t).toContain('410 Gone on watches');
    expect(t).toContain('Not connected: commands are unavailable.');
    expect(t).toContain('Workload');
    expect(t).toContain('Effects, live');
    expect(t).toContain('Relists');
  });

  it('faults: warns that a read-only real cluster will refuse', () => {
    const s = storeWith(view);
    s.setSnapshot(view, {
      protocolVersion: 1,
      serverEpoch: 'e',
      mode: 'live',
      cluster: { kind: 'kubeconfig', name: 'prod', writable: false },
      controllers: [],
      startedAt: 0,
      capabilities: { step: true, requeue: true, faults: false, workload: false, replay: false, recording: true },
    });
    const t = renderText(<Faults {...at()} />, s);
    expect(t).toContain('read-only mode');
    expect(t).toContain('“prod”');
  });

  it('faults: in a replay, says there is no API server instead of calling the recording a read-only real cluster', () => {
    const s = storeWith(view);
    s.setSnapshot(view, {
      protocolVersion: 1,
      serverEpoch: 'e',
      mode: 'replay',
      cluster: { kind: 'replay', name: 'incident.jsonl (sandbox)', writable: false },
      controllers: [],
      startedAt: 0,
      capabilities: { step: false, requeue: false, faults: false, workload: false, replay: true, recording: true },
    });
    const t = renderText(<Faults {...at()} />, s);
    expect(t).toContain('This is a replay of a recording: there is no API server');
    expect(t).not.toContain('real cluster');
    expect(t).not.toContain('Inject a fault');
    expect(t).toContain('Effects, as recorded');
  });

  it('learn: explanations beside live numbers and one object’s journey', () => {
    const t = renderText(<Learn {...at({ controller: 'pod-counter' })} />, store);
    expect(t).toContain('Follow one object, live');
    expect(t).toContain('What NewManager builds');
    expect(t).toContain('is a reflector + DeltaFIFO + indexer + handlers');
    expect(t).toContain('--kubeconfig');
    expect(t).toContain('TerminalError');
    expect(t).toContain('How can we watch multiple things?');
    expect(t).toContain('reads from cache');
    expect(t).toContain('watch delivered');
    expect(t).toContain('Reconcile returned success');
    expect(t).toContain('410 Gone');
  });
});

/** The key of the Pod the indexer wrote last, from the recorded events. */
function lastPodWrite(): string {
  const writes = recordedSession().events.filter((e) => e.kind === 'indexer.update' && e.informer === 'v1/Pod');
  const last = writes[writes.length - 1];
  if (last?.kind !== 'indexer.update') throw new Error('the recording has no Pod indexer write');
  return last.key;
}

/** The error of the flaky controller's last failed reconcile. */
function lastFlakyError(): string {
  const ends = recordedSession().events.filter(
    (e) => e.kind === 'reconcile.end' && e.controller === 'flaky' && e.error !== undefined,
  );
  const last = ends[ends.length - 1];
  if (last?.kind !== 'reconcile.end' || !last.error) throw new Error('the recording has no failed flaky reconcile');
  return last.error;
}

describe('panels over an empty view explain what is missing', () => {
  const empty = { view: createView(), now: 0, route: { panel: 'overview' as const } };
  it.each([
    ['overview', <Overview {...empty} />, 'No informer has started yet'],
    ['reflector', <Reflector {...empty} />, 'No informer has started yet'],
    ['delta-fifo', <DeltaFifo {...empty} />, 'No informer has started yet'],
    ['indexer', <Indexer {...empty} />, 'No informer has started yet'],
    ['workqueue', <Workqueue {...empty} />, 'No controller has created its workqueue yet'],
    ['controller', <Controller {...empty} />, 'No controller registered yet'],
    ['trace', <Trace {...empty} />, 'No key has been enqueued yet'],
    ['learn', <Learn {...empty} />, 'Waiting for a reconcile to finish'],
  ])('%s', (_name, el, text) => {
    expect(renderText(el)).toContain(text);
  });
});
