// The fault injector in-process with a fake clock: targeted request rules (latency, errors, conflicts,
// expiry), the legacy per-verb API, stalled watches that drop and later catch up, 410-expired watches.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject, KubeStatus, WatchEvent } from '../../../shared/models/object';
import { FakeClock, flushMicrotasks } from '../../runtime/testing/fake-clock';
import type { FaultRequest } from './faults';
import { SandboxServer } from './server';
import { isStatusError } from './status-errors';

const CM = { apiVersion: 'v1', kind: 'ConfigMap' };
const SECRET = { apiVersion: 'v1', kind: 'Secret' };
const servers: SandboxServer[] = [];

function sandbox(random: () => number = () => 0): { s: SandboxServer; clock: FakeClock } {
  const clock = new FakeClock();
  const s = new SandboxServer({ clock, bookmarkIntervalMs: 1000, garbageCollector: false, random });
  servers.push(s);
  return { s, clock };
}

afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

const req = (verb: FaultRequest['verb'], more: Partial<FaultRequest> = {}): FaultRequest => ({
  verb,
  group: '',
  resource: 'configmaps',
  namespaced: true,
  namespace: 'default',
  ...more,
});

/** Follows a before() call: its error, 'ok', or 'pending' while it still waits. */
function track(p: Promise<void>): () => unknown {
  let result: unknown = 'pending';
  p.then(
    () => (result = 'ok'),
    (e: unknown) => (result = e),
  );
  return () => result;
}

async function outcome(p: Promise<void> | (() => unknown)): Promise<unknown> {
  const get = typeof p === 'function' ? p : track(p);
  await flushMicrotasks();
  return get();
}

const code = (x: unknown): number | string => (isStatusError(x) ? x.code : String(x));

const summary = (events: WatchEvent[]) =>
  events.map((e) =>
    e.type === 'ERROR'
      ? `ERROR ${(e.object as KubeStatus).code}`
      : `${e.type} ${(e.object as KubeObject).metadata.name ?? ''}`,
  );

interface Recorded {
  events: WatchEvent[];
  ended: () => boolean;
}

async function watch(s: SandboxServer, ref = CM, opts: { namespace?: string; resourceVersion?: string } = {}) {
  const events: WatchEvent[] = [];
  let ended = false;
  s.store.watch(
    ref,
    { resourceVersion: s.store.resourceVersion, allowWatchBookmarks: true, ...opts },
    (e) => events.push(e),
    () => (ended = true),
  );
  await flushMicrotasks();
  return { events, ended: () => ended } satisfies Recorded;
}

const cm = (name: string, namespace = 'default') => ({ ...CM, metadata: { name, namespace } });

describe('request rules', () => {
  it('delays only requests that match verb, resource and namespace', async () => {
    const { s, clock } = sandbox();
    s.faults.addRule({ kind: 'latency', ms: 500, verbs: ['list'], resource: 'configmaps', namespace: 'default' });
    expect(await outcome(s.faults.before(req('get')))).toBe('ok');
    expect(await outcome(s.faults.before(req('list', { resource: 'secrets' })))).toBe('ok');
    expect(await outcome(s.faults.before(req('list', { namespace: 'other' })))).toBe('ok');
    const p = track(s.faults.before(req('list')));
    expect(await outcome(p)).toBe('pending');
    await clock.advance(499);
    expect(await outcome(p)).toBe('pending');
    await clock.advance(1);
    expect(await outcome(p)).toBe('ok');
  });

  it('a namespace target covers all-namespace reads of namespaced types, never cluster-scoped types', async () => {
    const { s } = sandbox();
    s.faults.addRule({ kind: 'errors', rate: 1, code: 503, namespace: 'default' });
    const { namespace: _ns, ...allNamespaces } = req('list');
    expect(code(await outcome(s.faults.before(allNamespaces)))).toBe(503);
    expect(await outcome(s.faults.before({ verb: 'list', group: '', resource: 'nodes', namespaced: false }))).toBe(
      'ok',
    );
  });

  it('a group target tells apart resources of the same name', async () => {
    const { s } = sandbox();
    s.faults.addRule({ kind: 'errors', rate: 1, code: 500, group: 'events.k8s.io', resource: 'events' });
    expect(await outcome(s.faults.before(req('list', { resource: 'events' })))).toBe('ok');
    expect(code(await outcome(s.faults.before(req('list', { group: 'events.k8s.io', resource: 'events' }))))).toBe(500);
  });

  it('fails the configured share of requests with the code, reason and Retry-After', async () => {
    let roll = 0.3;
    const { s } = sandbox(() => roll);
    s.faults.addRule({ kind: 'errors', rate: 0.5, code: 503, verbs: ['watch'] });
    const err = await outcome(s.faults.before(req('watch')));
    expect(isStatusError(err) && err.toStatus()).toMatchObject({ code: 503, reason: 'ServiceUnavailable' });
    expect(isStatusError(err) && err.toStatus().details?.retryAfterSeconds).toBe(1);
    roll = 0.7;
    expect(await outcome(s.faults.before(req('watch')))).toBe('ok');
  });

  it('answers conflicts on updates and patches by default, naming the object', async () => {
    const { s } = sandbox();
    s.faults.addRule({ kind: 'conflicts', rate: 1 });
    expect(s.faults.activeRules()[0]?.verbs).toEqual(['update', 'patch']);
    expect(await outcome(s.faults.before(req('create')))).toBe('ok');
    const err = await outcome(s.faults.before(req('update', { name: 'a' })));
    expect(isStatusError(err) && err.toStatus()).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: expect.stringContaining('configmaps "a": the object has been modified'),
    });
  });

  it('retires a rule at its until time and removes one by id', async () => {
    const { s, clock } = sandbox();
    const a = s.faults.addRule({ kind: 'errors', rate: 1, code: 500, verbs: ['get'], until: clock.now() + 1000 });
    const b = s.faults.addRule({ kind: 'errors', rate: 1, code: 429, verbs: ['list'] });
    expect(code(await outcome(s.faults.before(req('get'))))).toBe(500);
    clock.step(1000);
    expect(await outcome(s.faults.before(req('get')))).toBe('ok');
    expect(s.faults.activeRules().map((r) => r.id)).toEqual([b]);
    expect(s.faults.removeRule(b)).toBe(true);
    expect(s.faults.removeRule(a)).toBe(false);
    expect(await outcome(s.faults.before(req('list')))).toBe('ok');
  });

  it('fails only the named object, and a rule with times retires itself after that many failures', async () => {
    const { s } = sandbox();
    s.faults.addRule({ kind: 'errors', rate: 1, code: 500, verbs: ['update'], name: 'a', times: 1 });
    expect(await outcome(s.faults.before(req('update', { name: 'b' })))).toBe('ok');
    expect(await outcome(s.faults.before(req('create')))).toBe('ok');
    expect(code(await outcome(s.faults.before(req('update', { name: 'a' }))))).toBe(500);
    expect(await outcome(s.faults.before(req('update', { name: 'a' })))).toBe('ok');
    expect(s.faults.activeRules()).toEqual([]);
  });

  it('sends no Retry-After when retryAfterSeconds is 0, so the client does not retry by itself', async () => {
    const { s } = sandbox();
    s.faults.addRule({ kind: 'errors', rate: 1, code: 503, retryAfterSeconds: 0 });
    const err = await outcome(s.faults.before(req('get')));
    expect(isStatusError(err) && err.toStatus()).toMatchObject({ code: 503, reason: 'ServiceUnavailable' });
    expect(isStatusError(err) && err.toStatus().details?.retryAfterSeconds).toBeUndefined();
  });

  it('rejects nonsense values', () => {
    const { s } = sandbox();
    expect(() => s.faults.addRule({ kind: 'latency', ms: 0 })).toThrow(RangeError);
    expect(() => s.faults.addRule({ kind: 'errors', rate: 1.5, code: 500 })).toThrow(RangeError);
    expect(() => s.faults.addRule({ kind: 'errors', rate: 1, code: 200 })).toThrow(RangeError);
  });

  it('keeps the per-verb API: setLatency, setFailureRate, zero removes, clear', async () => {
    const { s, clock } = sandbox();
    s.faults.setLatency('*', 100);
    s.faults.setFailureRate('list', 1, 503);
    expect(s.faults.snapshot().rules.map((r) => r.id)).toEqual(['latency:*', 'failure:list']);
    const p = track(s.faults.before(req('list')));
    await clock.advance(100);
    expect(code(await outcome(p))).toBe(503);
    s.faults.setFailureRate('list', 0);
    s.faults.setLatency('*', 20);
    expect(s.faults.activeRules()).toEqual([{ id: 'latency:*', kind: 'latency', ms: 20 }]);
    s.faults.clear();
    expect(await outcome(s.faults.before(req('list')))).toBe('ok');
  });
});

describe('stalled watches', () => {
  it('drop events while the stream stays open, then catch up from history in order', async () => {
    const { s, clock } = sandbox();
    const w = await watch(s);
    s.store.create(cm('before'));
    const id = s.faults.stallWatches({ resource: 'configmaps' });
    expect(s.faults.stalledWatches()).toBe(1);
    const a = s.store.create(cm('a'));
    s.store.update({ ...a, data: { x: '1' } });
    s.store.delete(CM, 'before', 'default');
    clock.step(3000);
    expect(summary(w.events)).toEqual(['ADDED before']);
    expect(w.ended()).toBe(false);
    expect(s.openWatches).toBe(1);
    expect(s.faults.unstallWatches(id)).toBe(1);
    expect(summary(w.events)).toEqual(['ADDED before', 'ADDED a', 'MODIFIED a', 'DELETED before']);
    s.store.create(cm('after'));
    expect(summary(w.events).at(-1)).toBe('ADDED after');
    clock.step(1000);
    expect(w.events.at(-1)?.type).toBe('BOOKMARK');
  });

  it('leave other resources and namespaces alone', async () => {
    const { s } = sandbox();
    const inDefault = await watch(s, CM, { namespace: 'default' });
    const inOther = await watch(s, CM, { namespace: 'other' });
    const secrets = await watch(s, SECRET);
    s.faults.stallWatches({ resource: 'configmaps', namespace: 'default' });
    s.store.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } });
    s.store.create(cm('a'));
    s.store.create(cm('b', 'other'));
    s.store.create({ ...SECRET, metadata: { name: 's', namespace: 'default' } });
    expect(summary(inDefault.events)).toEqual([]);
    expect(summary(inOther.events)).toEqual(['ADDED b']);
    expect(summary(secrets.events)).toEqual(['ADDED s']);
  });

  it('also stall watches opened later; one that lost its initial events ends when the stall lifts', async () => {
    const { s } = sandbox();
    s.store.create(cm('a'));
    s.faults.stallWatches();
    const fromRv = await watch(s);
    const initial = await watch(s, CM, { resourceVersion: undefined });
    s.store.create(cm('b'));
    expect(summary(fromRv.events)).toEqual([]);
    expect(summary(initial.events)).toEqual([]);
    s.faults.clear();
    expect(summary(fromRv.events)).toEqual(['ADDED b']);
    expect(initial.ended()).toBe(true);
    expect(fromRv.ended()).toBe(false);
  });

  it('lifted with relist, end with 410 Expired instead of replaying, and only where no other stall holds', async () => {
    const { s } = sandbox();
    const cms = await watch(s);
    const secrets = await watch(s, SECRET);
    const id = s.faults.stallWatches({ resource: 'configmaps', lift: 'relist' });
    s.faults.stallWatches({ resource: 'secrets' });
    s.store.create(cm('a'));
    s.store.create({ ...SECRET, metadata: { name: 's', namespace: 'default' } });
    s.faults.unstallWatches(id);
    expect(summary(cms.events)).toEqual(['ERROR 410']);
    expect(cms.ended()).toBe(true);
    expect(secrets.ended()).toBe(false);
    expect(s.faults.stalledWatches()).toBe(1);
  });

  it('end with 410 Expired when history was compacted while they were stuck', async () => {
    const { s } = sandbox();
    const w = await watch(s);
    s.faults.stallWatches();
    s.store.create(cm('a'));
    s.faults.compactNow();
    s.faults.unstallWatches();
    expect(summary(w.events)).toEqual(['ERROR 410']);
    expect(w.ended()).toBe(true);
  });

  it('lift by themselves at their until time', async () => {
    const { s, clock } = sandbox();
    const w = await watch(s);
    const id = s.faults.stallWatches({ until: clock.now() + 5000 });
    s.store.create(cm('a'));
    expect(s.faults.snapshot().stalls.map((x) => x.id)).toEqual([id]);
    clock.step(5000);
    expect(summary(w.events.filter((e) => e.type !== 'BOOKMARK'))).toEqual(['ADDED a']);
    expect(s.faults.snapshot().stalls).toEqual([]);
    expect(s.faults.removeRule(id)).toBe(false);
  });
});

describe('expireWatches and closeWatches', () => {
  it('compacts history and ends matching watches with an ERROR 410 Expired event', async () => {
    const { s } = sandbox();
    const a = s.store.create(cm('a'));
    s.store.update({ ...a, data: { x: '1' } });
    const cms = await watch(s);
    const secrets = await watch(s, SECRET);
    const { compactedRv, expired } = s.faults.expireWatches({ resource: 'configmaps' });
    expect(expired).toBe(1);
    expect(compactedRv).toBe(Number(s.store.resourceVersion));
    expect(summary(cms.events)).toEqual(['ERROR 410']);
    expect(cms.events[0]?.object).toMatchObject({ reason: 'Expired', message: expect.stringContaining('too old') });
    expect(cms.ended()).toBe(true);
    expect(secrets.ended()).toBe(false);
    const late = await watch(s, CM, { resourceVersion: a.metadata.resourceVersion });
    expect(summary(late.events)).toEqual(['ERROR 410']);
  });

  it('closes only the matching watches, cleanly', async () => {
    const { s } = sandbox();
    const cms = await watch(s, CM, { namespace: 'default' });
    const all = await watch(s);
    const secrets = await watch(s, SECRET);
    expect(s.faults.closeWatches({ namespace: 'default', resource: 'configmaps' })).toBe(2);
    expect(cms.ended() && all.ended()).toBe(true);
    expect(cms.events).toEqual([]);
    expect(secrets.ended()).toBe(false);
  });
});
