// Liveness is a state: every part of an attached process turns gone with it, a restarted process's old
// parts read as stale until its new run reports them, and replicas of a lease are told apart.
import { describe, expect, it } from 'vitest';
import type { RuntimeEvent, StampedEvent } from './events';
import { GONE_COUNTS_CAVEAT, partLiveness, processLiveness, replicaRoles } from './liveness';
import { reduce } from './reduce';
import type { RuntimeView } from './view';
import { createView } from './view';

function run(events: RuntimeEvent[], view: RuntimeView = createView()): RuntimeView {
  const base = view.lastSeq;
  return reduce(
    view,
    events.map((e, i) => ({ ...e, seq: base + i + 1, ts: 1000 + (base + i) * 10 }) as StampedEvent),
  );
}

const connected = (process: string, missed?: number): RuntimeEvent => ({
  kind: 'bridge.process',
  process,
  address: '127.0.0.1:7071',
  phase: 'connected',
  ...(missed ? { missed } : {}),
});
const gone = (process: string): RuntimeEvent => ({
  kind: 'bridge.process',
  process,
  address: '127.0.0.1:7071',
  phase: 'gone',
  reason: 'connection refused',
});
const parts = (lane?: string): RuntimeEvent[] => {
  const n = (s: string): string => (lane ? `[${lane}] ${s}` : s);
  return [
    { kind: 'manager.lifecycle', phase: 'started', ...(lane ? { process: lane } : {}) },
    { kind: 'informer.lifecycle', informer: n('v1/ConfigMap'), phase: 'started', fifo: 'RealFIFO' },
    { kind: 'informer.synced', informer: n('v1/ConfigMap'), items: 2, durationMs: 3 },
    { kind: 'controller.lifecycle', controller: n('mirror'), phase: 'started', workers: 1 },
  ];
};

describe('liveness of an attached process', () => {
  it('turns every part gone when the one attached process goes (kill -9: no goodbye from it)', () => {
    let v = run([connected('op-1'), { ...parts()[0]!, process: 'op-1' } as RuntimeEvent, ...parts().slice(1)]);
    expect(partLiveness(v, v.controllers['mirror']!)).toEqual({ state: 'alive' });
    expect(v.processes?.['op-1']?.manager?.phase).toBe('started');
    v = run([gone('op-1')], v);
    for (const part of [v.controllers['mirror']!, v.informers['v1/ConfigMap']!]) {
      expect(partLiveness(v, part)).toMatchObject({
        state: 'gone',
        reason: expect.stringContaining('op-1 is gone'),
        // A killed process's last reconciles may never have been sent: its totals must not read as complete.
        caveat: GONE_COUNTS_CAVEAT,
      });
    }
    expect(processLiveness(v, 'op-1').state).toBe('gone');
  });

  it("reads a restarted process's old parts as stale until its new run reports them", () => {
    let v = run([connected('op-1'), ...parts()]);
    v = run([gone('op-1'), connected('op-1')], v);
    expect(v.processes?.['op-1']?.incarnation).toBe(2);
    expect(partLiveness(v, v.informers['v1/ConfigMap']!).state).toBe('stale');
    v = run(parts(), v);
    expect(partLiveness(v, v.informers['v1/ConfigMap']!).state).toBe('alive');
    expect(partLiveness(v, v.controllers['mirror']!).state).toBe('alive');
  });

  it("forgets a dead run's queue when a new run connects: nothing of it is still processing", () => {
    // Killed mid-reconcile: the old run's key read 'processing' for good, though nothing processed it.
    let v = run([
      connected('op-1'),
      ...parts(),
      {
        kind: 'queue.add',
        queue: 'mirror',
        key: 'ns/a',
        cause: { type: 'event' },
        queued: true,
        dirtyWhileProcessing: false,
        depth: { ready: 1, waiting: 0, processing: 0 },
      },
      { kind: 'queue.get', queue: 'mirror', key: 'ns/a', waitMs: 1, depth: { ready: 0, waiting: 0, processing: 1 } },
      { kind: 'reconcile.start', controller: 'mirror', key: 'ns/a', worker: 0, causes: [], attempt: 1 },
      {
        kind: 'queue.add',
        queue: 'mirror',
        key: 'ns/b',
        cause: { type: 'event' },
        queued: true,
        dirtyWhileProcessing: false,
        depth: { ready: 1, waiting: 0, processing: 1 },
      },
      gone('op-1'),
    ]);
    expect(v.controllers['mirror']?.keys['ns/a']?.state).toBe('processing');
    v = run([connected('op-1')], v);
    const c = v.controllers['mirror']!;
    expect(c.keys['ns/a']).toMatchObject({ state: 'idle', lastReconcile: { interrupted: true } });
    expect(c.keys['ns/a']?.lastReconcile?.endTs).toBeDefined();
    expect(c.keys['ns/b']).toMatchObject({ state: 'idle', pendingCauses: [] });
    expect(c.depth).toEqual({ ready: 0, waiting: 0, processing: 0 });
    expect(c.activeWorkers).toBe(0);
  });

  it('keeps each lane tied to its own process', () => {
    const v = run([connected('a'), connected('b'), ...parts('a'), ...parts('b'), gone('a')]);
    expect(partLiveness(v, v.controllers['[a] mirror']!).state).toBe('gone');
    expect(partLiveness(v, v.controllers['[b] mirror']!).state).toBe('alive');
    expect(v.informers['[b] v1/ConfigMap']?.process).toBe('b');
  });

  it('marks a process incomplete when events were missed or dropped', () => {
    expect(run([connected('a')]).processes?.['a']?.complete).toBe(true);
    expect(run([connected('a', 40)]).processes?.['a']?.complete).toBe(false);
    const dropped = run([connected('a'), { kind: 'bridge.dropped', process: 'a', dropped: 3, total: 3 }]);
    expect(dropped.processes?.['a']?.complete).toBe(false);
  });

  it("leaves the dashboard's own parts alive (no process)", () => {
    const v = run(parts());
    expect(partLiveness(v, v.controllers['mirror']!)).toEqual({ state: 'alive' });
  });
});

describe('replicas of a lease', () => {
  const le = (process: string, phase: 'acquiring' | 'acquired'): RuntimeEvent => ({
    kind: 'leaderelection.state',
    lease: 'ns/op-lock',
    identity: process,
    phase,
    process,
  });
  const roles = (v: RuntimeView): Record<string, string> =>
    Object.fromEntries(replicaRoles(v, v.leaders['ns/op-lock']!).map((r) => [r.replica.identity, r.role]));

  it('tells the leader from the standby, and a dead leader is gone at once, not "acquired"', () => {
    let v = run([connected('a'), connected('b'), le('a', 'acquiring'), le('b', 'acquiring'), le('a', 'acquired')]);
    expect(roles(v)).toEqual({ a: 'leader', b: 'standby' });
    v = run([gone('a')], v);
    expect(roles(v)).toEqual({ a: 'gone', b: 'standby' });
    v = run([le('b', 'acquired')], v);
    expect(roles(v)).toEqual({ a: 'gone', b: 'leader' });
  });

  it('makes the newest acquire the leader when an older holder never said it lost', () => {
    const v = run([connected('a'), connected('b'), le('a', 'acquired'), le('b', 'acquired')]);
    expect(roles(v)).toEqual({ a: 'standby', b: 'leader' });
  });
});
