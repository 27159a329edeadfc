// Holds are owned: a hold or breakpoint records the viewer who set it, is released when that viewer
// disconnects (unless pinned), every viewer sees who holds a controller, and a second viewer steps or resumes
// it only by saying it takes over. Before, a closed tab left its controller held for good and anyone could
// step or resume it without being told.
import { afterEach, describe, expect, it } from 'vitest';
import type { Ack, StepState } from '../../../shared/protocol/commands';
import type { ServerStatus } from '../../../shared/protocol/socket';
import { Controller } from '../../runtime/controller/controller';
import { newRegistry } from '../../runtime/metrics/registry';
import { reconcileFunc } from '../../runtime/reconcile/reconcile';
import { FakeClock } from '../../runtime/testing/fake-clock';
import { FakeRequestQueue } from '../../runtime/testing/fake-request-queue';
import { stepPort } from '../step-port';
import type { DashboardServer } from './dashboard-server';
import { client, hello, startTestDashboard, until } from './test-harness';
import type { TestClient } from './test-harness';

const open: { dash?: DashboardServer; clients: TestClient[] } = { clients: [] };
afterEach(async () => {
  for (const c of open.clients) c.disconnect();
  open.clients = [];
  await open.dash?.close();
  open.dash = undefined;
});

async function twoViewers() {
  const c = new Controller({
    name: 'pods',
    registry: newRegistry(false),
    clock: new FakeClock(),
    newQueue: () => new FakeRequestQueue(),
    reconciler: reconcileFunc(async () => ({})),
  });
  const port = stepPort(c);
  const { dash } = await startTestDashboard({ controllers: ['pods'], ports: { steppers: () => port } });
  open.dash = dash;
  const viewer = async (name: string) => {
    const s = client(dash);
    open.clients.push(s);
    const seen: { status?: ServerStatus } = {};
    s.on('status', (st) => (seen.status = st));
    await hello(s, { viewer: { name } });
    return { s, seen, pods: () => seen.status?.steppers.pods };
  };
  return { controller: c, alice: await viewer('alice'), bob: await viewer('bob') };
}

const send = (s: TestClient, cmd: Record<string, unknown>) =>
  s.emitWithAck('command', { controller: 'pods', ...cmd } as never) as Promise<Ack<StepState>>;

describe('holds are owned', () => {
  it("shows every viewer who holds, and refuses another viewer's step or resume unless it takes over", async () => {
    const { alice, bob } = await twoViewers();
    const held = await send(alice.s, { type: 'step.hold' });
    expect(held).toMatchObject({ ok: true, result: { holding: true, holder: { name: 'alice', pinned: false } } });
    await until(bob.s, () => bob.pods()?.holder?.name === 'alice');
    expect(bob.pods()?.holder).toMatchObject({ viewer: alice.s.id, connected: true });

    for (const type of ['step.next', 'step.resume', 'step.hold']) {
      const refused = await send(bob.s, { type });
      expect(refused).toMatchObject({ ok: false, code: 'conflict' });
      expect(!refused.ok && refused.error).toMatch(
        /refused: controller "pods" is held by alice since \d\d:\d\d:\d\d UTC; to .* anyway, take it over \(the Take over button, or takeOver: true in the command\)$/,
      );
    }
    expect(await send(bob.s, { type: 'step.runTo', key: 'ns/a' })).toMatchObject({ ok: false, code: 'conflict' });

    const taken = await send(bob.s, { type: 'step.next', takeOver: true });
    expect(taken).toMatchObject({ ok: true, result: { holding: true, holder: { name: 'bob' } } });
    await until(alice.s, () => alice.pods()?.holder?.name === 'bob');
    expect(await send(alice.s, { type: 'step.resume' })).toMatchObject({ ok: false, code: 'conflict' });
    expect(await send(bob.s, { type: 'step.resume' })).toMatchObject({ ok: true, result: { holding: false } });
    // Nobody holds a dispatching controller: anyone may hold it again.
    expect(await send(alice.s, { type: 'step.hold' })).toMatchObject({
      ok: true,
      result: { holder: { name: 'alice' } },
    });
  });

  it('releases a hold and removes breakpoints when their viewer disconnects, unless pinned', async () => {
    const { controller, alice, bob } = await twoViewers();
    await send(alice.s, { type: 'step.hold' });
    await send(alice.s, { type: 'step.breakpoint', key: 'ns/gone-with-alice' });
    await send(alice.s, { type: 'step.breakpoint', key: 'ns/pinned', pin: true });
    await send(bob.s, { type: 'step.breakpoint', key: 'ns/bobs' });
    await until(bob.s, () => bob.pods()?.list?.length === 3);
    expect(bob.pods()?.list?.find((b) => b.key === 'ns/bobs')?.owners).toMatchObject([{ name: 'bob' }]);
    alice.s.disconnect();
    await until(bob.s, () => bob.pods()?.holding === false && bob.pods()?.list?.length === 2);
    expect(controller.stepper.state().stepMode).toBe(false);
    expect(bob.pods()?.list?.map((b) => [b.key, b.owners?.[0]?.name, b.owners?.[0]?.connected])).toEqual([
      ['ns/pinned', 'alice', false],
      ['ns/bobs', 'bob', true],
    ]);
  });

  it('keeps a pinned hold after its viewer leaves, shown as left, until someone takes it over', async () => {
    const { controller, alice, bob } = await twoViewers();
    await send(alice.s, { type: 'step.hold', pin: true });
    alice.s.disconnect();
    // The server hears the disconnect: the holder shows as gone, the hold stays.
    await until(bob.s, () => bob.pods()?.holder?.connected === false);
    expect(controller.stepper.state().stepMode).toBe(true);
    const refused = await send(bob.s, { type: 'step.resume' });
    expect(!refused.ok && refused.error).toContain('held by alice since');
    expect(!refused.ok && refused.error).toContain('(pinned; that viewer has left)');
    expect(await send(bob.s, { type: 'step.resume', takeOver: true })).toMatchObject({
      ok: true,
      result: { holding: false },
    });
  });

  it('gives the hold a breakpoint makes to the viewer who set that breakpoint', async () => {
    const { controller, alice, bob } = await twoViewers();
    await send(alice.s, { type: 'step.breakpoint', key: 'ns/*' });
    // A worker takes ns/a and the breakpoint fires before its reconcile.
    const worker = new AbortController();
    const waiting = controller.stepper.afterGet('ns/a', false, worker.signal, { worker: 1, attempt: 1 });
    await until(bob.s, () => bob.pods()?.holding === true);
    await until(bob.s, () => bob.pods()?.holder !== undefined);
    expect(bob.pods()?.holder).toMatchObject({ name: 'alice' });
    expect(await send(bob.s, { type: 'step.next' })).toMatchObject({ ok: false, code: 'conflict' });
    expect(await send(alice.s, { type: 'step.next' })).toMatchObject({ ok: true, result: { released: 'ns/a' } });
    await waiting;
    worker.abort();
  });
});
