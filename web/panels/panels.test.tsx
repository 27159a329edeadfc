// Every panel rendered from a recorded-like session (the synthetic runtime through the shared reducer):
// the key facts a user looks for must be on screen, and empty views must explain themselves.
import { describe, expect, it } from 'vitest';
import { createView } from '../../shared/protocol/view';
import type { Route } from '../client/route';
import { fixtureView } from '../fixtures/fixture-view';
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

const view = fixtureView();
const now = view.lastTs;
const store = storeWith(view);
const at = (route: Partial<Route> = {}) => ({ view, now, route: { panel: 'overview' as const, ...route } });

describe('panels over a live-like session', () => {
  it('overview: every block of the pipeline with live numbers and the notable log', () => {
    const t = renderText(<Overview {...at()} />, store);
    for (const s of ['Reflector', 'DeltaFIFO', 'Indexer', 'Handlers', 'Workqueue', 'Workers', 'Reconciler'])
      expect(t).toContain(s);
    expect(t).toContain('watching');
    expect(t).toContain('hot loop');
    expect(t).toContain(`${view.informers['v1/Pod']?.storeSize} objects cached`);
    expect(t).toContain('Informers synced 2/2');
    expect(t).toContain('Manager started');
    expect(t).toMatch(/410|relist/i);
  });

  it('reflector: current state, 410 and relist in the session history', () => {
    const t = renderText(<Reflector {...at({ informer: 'v1/Pod' })} />, store);
    expect(t).toContain('State watching');
    expect(t).toContain('410 GONE');
    expect(t).toContain('RELIST');
    expect(t).toContain('2 deleted (tombstones)');
  });

  it('delta-fifo: queue length and the delta mix', () => {
    const t = renderText(<DeltaFifo {...at({ informer: 'v1/Pod' })} />, store);
    expect(t).toContain('Queue length');
    expect(t).toContain('Replaced');
    expect(t).toMatch(/Pending deltas per key/);
  });

  it('indexer: store size and the keys known without a server', () => {
    const t = renderText(<Indexer {...at({ informer: 'v1/Pod' })} />, store);
    expect(t).toContain('Objects cached');
    expect(t).toContain('default/web-001');
    expect(t).toContain('Recent cache writes');
  });

  it('workqueue: depth parts, retries and per-key rows with backoff', () => {
    const t = renderText(<Workqueue {...at({ controller: 'flaky' })} />, store);
    expect(t).toContain('Depth (ready)');
    expect(t).toContain('Retries');
    expect(t).toContain('errorBackoff');
    expect(t).toMatch(/default\/web-00[37]/);
  });

  it('controller: outcomes, histogram metric, workers and step mode', () => {
    const t = renderText(<Controller {...at({ controller: 'flaky' })} />, store);
    expect(t).toContain('Controller “flaky”');
    expect(t).toContain('controller_runtime_reconcile_time_seconds');
    expect(t).toContain('terminalError');
    expect(t).toContain('conflict updating');
    expect(t).toContain('Step debugger');
    expect(t).toContain('Not connected to a server');
  });

  it('trace: hot-loop evidence with the write that re-triggered the key', () => {
    const t = renderText(<Trace {...at({ controller: 'hot-loop', key: 'default/web-001' })} />, store);
    expect(t).toContain('Hot loop detected');
    expect(t).toContain('updateStatus v1/Pod default/web-001');
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
