// Every list a client can grow is capped, and connections, undelivered bytes, inspects and compares are
// budgeted for the whole process: each refusal names the cap or budget and its size. Before these, 3,000
// breakpoint adds grew RSS to 1.85 GB (every ack carried the whole list), the inspect limit was per
// connection and connections were not capped, and cache.compare had no limit at all.
import type { Socket as NetSocket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Ack } from '../../../shared/protocol/commands';
import type { DriftReport } from '../../../shared/protocol/drift';
import type { InspectResult } from '../../../shared/protocol/socket';
import { EventScript } from '../../../shared/protocol/testing/synthetic';
import { Controller } from '../../runtime/controller/controller';
import { newRegistry } from '../../runtime/metrics/registry';
import { reconcileFunc } from '../../runtime/reconcile/reconcile';
import { FakeClock } from '../../runtime/testing/fake-clock';
import { FakeRequestQueue } from '../../runtime/testing/fake-request-queue';
import { Recorder } from '../recorder/recorder';
import { stepPort } from '../step-port';
import { DEFAULT_BUDGETS } from './budgets';
import { CommandHandler } from './command-handler';
import type { DashboardServer } from './dashboard-server';
import { client, connectError, connected, hello, startTestDashboard, unstamped } from './test-harness';
import type { TestClient } from './test-harness';

const open: { dash?: DashboardServer; clients: TestClient[] } = { clients: [] };
afterEach(async () => {
  for (const c of open.clients) c.disconnect();
  open.clients = [];
  await open.dash?.close();
  open.dash = undefined;
});

async function setup(opts: Parameters<typeof startTestDashboard>[0] = {}) {
  const r = await startTestDashboard(opts);
  open.dash = r.dash;
  return r;
}

function track(c: TestClient): TestClient {
  open.clients.push(c);
  return c;
}

function controller(name = 'pods'): Controller {
  return new Controller({
    name,
    registry: newRegistry(false),
    clock: new FakeClock(),
    newQueue: () => new FakeRequestQueue(),
    reconciler: reconcileFunc(async () => ({})),
  });
}

/** Answers each compare when the test says so. */
function heldComparer() {
  const pending: { informer: string; done: () => void }[] = [];
  return {
    pending,
    port: {
      compare: (informer: string) =>
        new Promise<DriftReport>((resolve) =>
          pending.push({
            informer,
            done: () =>
              resolve({
                informer,
                comparedAt: 0,
                listResourceVersion: '1',
                pages: 1,
                pageSize: 500,
                durationMs: 0,
                cacheCount: 0,
                serverCount: 0,
                missing: [],
                extra: [],
                stale: [],
              } as unknown as DriftReport),
          }),
        ),
    },
  };
}

describe('caps on lists a client can grow', () => {
  it('refuses a breakpoint past the cap per controller, naming it, and every ack stays bounded', async () => {
    const c = controller();
    const port = stepPort(c);
    const { dash } = await setup({ controllers: ['pods'], ports: { steppers: () => port } });
    const s = track(client(dash));
    await hello(s);
    const cap = DEFAULT_BUDGETS.breakpointsPerController;
    let largest = 0;
    for (let i = 0; i < cap; i++) {
      const ack = await s.emitWithAck('command', { type: 'step.breakpoint', controller: 'pods', key: `ns/k-${i}` });
      if (!ack.ok) throw new Error(ack.error);
      largest = Math.max(largest, JSON.stringify(ack).length);
    }
    const over = await s.emitWithAck('command', { type: 'step.breakpoint', controller: 'pods', key: 'ns/one-more' });
    expect(over).toMatchObject({ ok: false, code: 'tooMany' });
    expect(!over.ok && over.error).toBe(
      `breakpoint on "pods" refused: the controller has ${cap} breakpoints; the cap breakpointsPerController is ` +
        `${cap}; remove some first`,
    );
    expect(c.stepper.state().breakpoints).toHaveLength(cap);
    // run to a key is a breakpoint too
    expect(await s.emitWithAck('command', { type: 'step.runTo', controller: 'pods', key: 'ns/x' })).toMatchObject({
      ok: false,
      code: 'tooMany',
    });
    expect(largest).toBeLessThan(64 * 1024);
  });

  it('names the cap on subscription lists and on a cache search', async () => {
    const { dash } = await setup();
    const s = track(client(dash));
    await hello(s);
    const many = Array.from({ length: DEFAULT_BUDGETS.subscriptionNames + 1 }, (_, i) => `ns-${i}`);
    const sub = await s.emitWithAck('subscribe', { namespaces: many });
    expect(sub).toMatchObject({ ok: false, code: 'invalid' });
    expect(!sub.ok && sub.error).toContain('at most 1000 names (cap subscriptionNames)');
    const search = await s.emitWithAck('inspect', { target: 'cache', informer: 'v1/Pod', search: 'x'.repeat(513) });
    expect(!search.ok && search.error).toContain('at most 512 characters (cap searchLength)');
  });
});

describe('process-wide budgets', () => {
  it('refuses a connection past the socket budget with a message naming it, and admits one once a socket leaves', async () => {
    const { dash } = await setup({ limits: { budgets: { sockets: 3 } } });
    const first = [track(client(dash)), track(client(dash)), track(client(dash))];
    await Promise.all(first.map(connected));
    const refused = await connectError(track(client(dash)));
    expect(refused.message).toBe(
      'connection refused: 3 sockets are connected to this process; the process-wide budget sockets is 3; ' +
        'close another dashboard tab or client and reconnect',
    );
    first[0]!.disconnect();
    // Wait on the server's own count of connected viewers, then connect again.
    while (dash.sockets.clientStats().length > 2) await new Promise((r) => setImmediate(r));
    const again = track(client(dash));
    await connected(again);
    expect(again.connected).toBe(true);
  });

  it('counts inspects waiting across all connections against one budget, and answers every request', async () => {
    const { dash, recorder } = await setup({ limits: { budgets: { inspects: 4 } } });
    const script = new EventScript();
    script.informerStartup('v1/Pod', 'v1/Pod', 50);
    for (const e of unstamped(script.events)) recorder.emit(e);
    recorder.flush();
    const a = track(client(dash));
    const b = track(client(dash));
    await Promise.all([hello(a), hello(b)]);
    const asks: Promise<Ack<InspectResult>>[] = [];
    for (let i = 0; i < 30; i++) {
      for (const c of [a, b]) asks.push(c.emitWithAck('inspect', { target: 'events', afterSeq: 0, limit: 50 }));
    }
    const all = await Promise.all(asks);
    const refused = all.filter((x) => !x.ok);
    expect(refused.length).toBeGreaterThan(0);
    expect(all.filter((x) => x.ok).length).toBeGreaterThanOrEqual(4);
    expect(refused[0]).toMatchObject({ ok: false, code: 'busy' });
    expect(!refused[0]!.ok && refused[0]!.error).toMatch(
      /^inspect refused: \d+ inspect requests from all viewers are waiting to be answered; the process-wide budget inspects is 4;/,
    );
    expect((await a.emitWithAck('inspect', { target: 'events', afterSeq: 0, limit: 5 })).ok).toBe(true);
  });

  it("refuses another viewer's inspect while the viewers together hold the undelivered-bytes budget", async () => {
    const { dash, recorder } = await setup({
      limits: {
        budgets: { undeliveredBytes: 512 * 1024 },
        inspectLimits: { maxPendingBytes: 64 * 1024 * 1024, maxPendingPackets: 1000, maxAnswerBytes: 64 * 1024 * 1024 },
      },
    });
    const script = new EventScript();
    script.informerStartup('v1/Pod', 'v1/Pod', 3000);
    for (const e of unstamped(script.events)) recorder.emit(e);
    recorder.flush();
    const slow = track(client(dash));
    const other = track(client(dash));
    await Promise.all([hello(slow), hello(other)]);
    const raw = (slow.io.engine as unknown as { transport: { ws: { _socket: NetSocket } } }).transport.ws._socket;
    raw.pause();
    const big: Promise<Ack<InspectResult>>[] = [];
    for (let i = 0; i < 12; i++) big.push(slow.emitWithAck('inspect', { target: 'events', afterSeq: 0, limit: 3000 }));
    // Wait (on the server's own count, no timer) until the unread answers are over the budget.
    while (dash.sockets.undeliveredBytes() < 512 * 1024) await new Promise((r) => setImmediate(r));
    const refused = await other.emitWithAck('inspect', { target: 'events', afterSeq: 0, limit: 5 });
    expect(refused).toMatchObject({ ok: false, code: 'busy' });
    expect(!refused.ok && refused.error).toMatch(
      /^inspect refused: [\d.]+ MiB written to viewers is not yet delivered; the process-wide budget undeliveredBytes is 0\.5 MiB; wait/,
    );
    raw.resume();
    await Promise.all(big);
    expect((await other.emitWithAck('inspect', { target: 'events', afterSeq: 0, limit: 5 })).ok).toBe(true);
  });

  it('runs one compare at a time per informer and a few at a time in all, naming the budget', async () => {
    const comparer = heldComparer();
    const { dash } = await setup({ ports: { cacheComparer: comparer.port } });
    const s = track(client(dash));
    await hello(s);
    const first = s.emitWithAck('command', { type: 'cache.compare', informer: 'v1/Pod' });
    const same = await s.emitWithAck('command', { type: 'cache.compare', informer: 'v1/Pod' });
    expect(same).toEqual({
      ok: false,
      code: 'busy',
      error:
        'cache.compare of "v1/Pod" refused: a compare of this informer is running (one at a time per informer); ' +
        'wait for its report',
    });
    const second = s.emitWithAck('command', { type: 'cache.compare', informer: 'v1/Node' });
    const third = await s.emitWithAck('command', { type: 'cache.compare', informer: 'apps/v1/Deployment' });
    expect(!third.ok && third.error).toBe(
      'cache.compare of "apps/v1/Deployment" refused: 2 compares are running; the process-wide budget compares ' +
        'is 2; try again once one ends',
    );
    while (comparer.pending.length < 2) await new Promise((r) => setImmediate(r));
    for (const p of comparer.pending) p.done();
    expect((await first).ok).toBe(true);
    expect((await second).ok).toBe(true);
  });

  it('limits the compare rate against a real cluster, not against the sandbox', async () => {
    const clock = new FakeClock();
    const comparer = heldComparer();
    const kube = new CommandHandler({
      recorder: new Recorder({ clock }),
      ports: { cacheComparer: comparer.port },
      cluster: { kind: 'kubeconfig', name: 'prod', writable: false },
      budgets: { comparesPerMinute: 2 },
      clock,
    });
    const run = async (h: CommandHandler) => {
      const ack = h.handle({ type: 'cache.compare', informer: 'v1/Pod' });
      while (comparer.pending.length === 0) await new Promise((r) => setImmediate(r));
      comparer.pending.shift()?.done();
      return ack;
    };
    expect((await run(kube)).ok).toBe(true);
    clock.step(10_000);
    expect((await run(kube)).ok).toBe(true);
    clock.step(10_000);
    const limited = await kube.handle({ type: 'cache.compare', informer: 'v1/Pod' });
    expect(limited).toEqual({
      ok: false,
      code: 'busy',
      error:
        'cache.compare of "v1/Pod" refused: 2 compares started in the last minute against kubeconfig cluster ' +
        '"prod", whose API server serves every LIST they make; the process-wide budget comparesPerMinute is 2; ' +
        'try again in 40 s',
    });
    clock.step(41_000);
    expect((await run(kube)).ok).toBe(true);
    const sandbox = new CommandHandler({
      recorder: new Recorder({ clock }),
      ports: { cacheComparer: comparer.port },
      cluster: { kind: 'sandbox', writable: true },
      budgets: { comparesPerMinute: 1 },
      clock,
    });
    for (let i = 0; i < 3; i++) expect((await run(sandbox)).ok).toBe(true);
  });
});

describe('requeue against a read-only cluster', () => {
  it('is refused as a write, with a clear message, and allowed where writes are', async () => {
    const requeued: string[] = [];
    const requeuer = { requeue: (c: string, k: string) => (requeued.push(`${c}:${k}`), true) };
    const readOnly = new CommandHandler({
      recorder: new Recorder({ clock: new FakeClock() }),
      ports: { requeuer },
      cluster: { kind: 'kubeconfig', name: 'kind-dev', writable: false },
    });
    expect(await readOnly.handle({ type: 'requeue', controller: 'pods', key: 'default/a' })).toEqual({
      ok: false,
      code: 'forbidden',
      error:
        'refusing to requeue "default/a" on pods: cluster "kind-dev" is a kubeconfig cluster and the dashboard is ' +
        'read-only against it (a requeue starts a reconcile, which writes to the cluster); restart with ' +
        '--allow-writes to permit this',
    });
    expect(requeued).toEqual([]);
    for (const cluster of [
      { kind: 'kubeconfig' as const, writable: true },
      { kind: 'sandbox' as const, writable: true },
    ]) {
      const h = new CommandHandler({
        recorder: new Recorder({ clock: new FakeClock() }),
        ports: { requeuer },
        cluster,
      });
      expect((await h.handle({ type: 'requeue', controller: 'pods', key: 'default/a' })).ok).toBe(true);
    }
    expect(requeued).toEqual(['pods:default/a', 'pods:default/a']);
  });

  it('says so to a socket client of a read-only kubeconfig dashboard', async () => {
    const { dash } = await setup({
      cluster: { kind: 'kubeconfig', name: 'kind-dev', writable: false },
      ports: { requeuer: { requeue: () => true } },
    });
    const s = track(client(dash));
    await hello(s);
    const ack = await s.emitWithAck('command', { type: 'requeue', controller: 'pods', key: 'default/a' });
    expect(ack).toMatchObject({ ok: false, code: 'forbidden' });
  });
});
