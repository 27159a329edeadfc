// One client must not be able to fill the server's heap with inspect answers: an answer over the size cap
// becomes an error saying how to ask for less, and while a connection has too much unsent (a client that asks
// without reading) further requests are refused as busy instead of queued.
import type { Socket as NetSocket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Ack } from '../../../shared/protocol/commands';
import type { InspectResult } from '../../../shared/protocol/socket';
import { EventScript } from '../../../shared/protocol/testing/synthetic';
import type { DashboardServer } from './dashboard-server';
import { client, hello, startTestDashboard, unstamped } from './test-harness';
import type { TestClient } from './test-harness';

let dash: DashboardServer | undefined;
let socket: TestClient | undefined;
afterEach(async () => {
  socket?.disconnect();
  await dash?.close();
  dash = undefined;
});

async function dashboardWithEvents(n: number, inspectLimits: Record<string, number>) {
  const started = await startTestDashboard({ limits: { inspectLimits } });
  dash = started.dash;
  const s = new EventScript();
  s.informerStartup('v1/Pod', 'v1/Pod', n);
  for (const e of unstamped(s.events)) started.recorder.emit(e);
  started.recorder.flush();
  return started.recorder;
}

describe('inspect limits per connection', () => {
  it('replaces an answer over the size cap with an error naming the sizes and the fix', async () => {
    await dashboardWithEvents(2000, { maxAnswerBytes: 100_000 });
    socket = client(dash!);
    await hello(socket);
    const big = (await socket.emitWithAck('inspect', { target: 'events', afterSeq: 0, limit: 10_000 })) as Ack<never>;
    expect(big).toMatchObject({ ok: false, code: 'tooLarge' });
    expect(!big.ok && big.error).toMatch(/over the 0\.1 MiB limit per answer; ask for fewer items/);
    const small = await socket.emitWithAck('inspect', { target: 'events', afterSeq: 0, limit: 20 });
    expect(small.ok).toBe(true);
  });

  it('refuses requests as busy while a client that does not read has too much unsent', async () => {
    await dashboardWithEvents(3000, { maxPendingBytes: 1024 * 1024, maxAnswerBytes: 64 * 1024 * 1024 });
    socket = client(dash!);
    await hello(socket);
    // Stop reading: the server's answers pile up in its socket.
    const engine = socket.io.engine as unknown as { transport: { ws: { _socket: NetSocket } } };
    const raw = engine.transport.ws._socket;
    raw.pause();
    const answers: Promise<Ack<InspectResult>>[] = [];
    for (let i = 0; i < 120; i++) {
      answers.push(socket.emitWithAck('inspect', { target: 'events', afterSeq: 0, limit: 3000 }));
    }
    const hellos = [hello(socket), hello(socket)];
    // Let the requests reach the server and be answered (or refused) while nothing is read.
    await new Promise((r) => setTimeout(r, 1500));
    raw.resume();
    const all = await Promise.all(answers);
    const busy = all.filter((a) => !a.ok && a.code === 'busy');
    const ok = all.filter((a) => a.ok);
    expect(busy.length).toBeGreaterThan(0);
    expect(ok.length).toBeGreaterThan(0);
    expect(ok.length + busy.length).toBe(120);
    const helloAnswers = await Promise.all(hellos);
    expect(helloAnswers.map((h) => h.type)).toContain('error');
    expect(JSON.stringify(helloAnswers)).toContain('hello refused: this connection has');
    const first = busy[0] as { error: string };
    expect(first.error).toMatch(/not yet delivered .*wait for earlier answers/);
    // Once the client has read everything, it is served again.
    const after = await socket.emitWithAck('inspect', { target: 'events', afterSeq: 0, limit: 10 });
    expect(after.ok).toBe(true);
  });
});
