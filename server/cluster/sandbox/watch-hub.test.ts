// Watch semantics through the in-process store with a fake clock: replay from a revision, selector
// transitions, bookmarks, initial events, deadlines, 410 after compaction.
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject, KubeStatus, WatchEvent } from '../../../shared/models/object';
import { FakeClock } from '../../runtime/testing/fake-clock';
import { SandboxServer } from './server';
import { INITIAL_EVENTS_END_ANNOTATION } from './watch-hub';

const CM = { apiVersion: 'v1', kind: 'ConfigMap' };
const servers: SandboxServer[] = [];

function sandbox(bookmarkIntervalMs = 1000): { s: SandboxServer; clock: FakeClock } {
  const clock = new FakeClock();
  const s = new SandboxServer({ clock, bookmarkIntervalMs, garbageCollector: false });
  servers.push(s);
  return { s, clock };
}

afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

const summary = (events: WatchEvent[]) =>
  events.map((e) =>
    e.type === 'ERROR'
      ? `ERROR ${(e.object as KubeStatus).code}`
      : `${e.type} ${(e.object as KubeObject).metadata.name ?? ''}@${(e.object as KubeObject).metadata.resourceVersion}`,
  );

describe('watch', () => {
  it('replays every change after the given resourceVersion, then streams new ones', async () => {
    const { s } = sandbox();
    const a = s.store.create({ ...CM, metadata: { name: 'a', namespace: 'default' } });
    const a2 = s.store.update({ ...a, data: { x: '1' } });
    const events: WatchEvent[] = [];
    s.store.watch(CM, { namespace: 'default', resourceVersion: a.metadata.resourceVersion }, (e) => events.push(e));
    await Promise.resolve();
    s.store.delete(CM, 'a', 'default');
    const del = Number(a2.metadata.resourceVersion) + 1;
    expect(summary(events)).toEqual([`MODIFIED a@${a2.metadata.resourceVersion}`, `DELETED a@${del}`]);
  });

  it('starts with synthetic ADDED events when no resourceVersion is given', async () => {
    const { s } = sandbox();
    s.store.create({ ...CM, metadata: { name: 'a', namespace: 'default' } });
    s.store.create({ ...CM, metadata: { name: 'b', namespace: 'kube-system' } });
    const events: WatchEvent[] = [];
    s.store.watch(CM, { namespace: 'default' }, (e) => events.push(e));
    await Promise.resolve();
    expect(events.map((e) => `${e.type} ${(e.object as KubeObject).metadata.name}`)).toEqual(['ADDED a']);
  });

  it('turns selector transitions into ADDED and DELETED', async () => {
    const { s } = sandbox();
    const a = s.store.create({ ...CM, metadata: { name: 'a', namespace: 'default' } });
    const events: WatchEvent[] = [];
    s.store.watch(CM, { labelSelector: 'app=x', resourceVersion: s.store.resourceVersion }, (e) => events.push(e));
    await Promise.resolve();
    const a2 = s.store.update({ ...a, metadata: { ...a.metadata, labels: { app: 'x' } } });
    const a3 = s.store.update({ ...a2, data: { k: 'v' } });
    const a4 = s.store.update({ ...a3, metadata: { ...a3.metadata, labels: { app: 'y' } } });
    expect(summary(events)).toEqual([
      `ADDED a@${a2.metadata.resourceVersion}`,
      `MODIFIED a@${a3.metadata.resourceVersion}`,
      `DELETED a@${a4.metadata.resourceVersion}`,
    ]);
    // The DELETED object is the previous state (still labelled app=x) at the new revision.
    expect((events[2]?.object as KubeObject).metadata.labels).toEqual({ app: 'x' });
  });

  it('sends periodic bookmarks carrying the newest revision', async () => {
    const { s, clock } = sandbox(1000);
    const events: WatchEvent[] = [];
    s.store.watch(CM, { resourceVersion: s.store.resourceVersion, allowWatchBookmarks: true }, (e) => events.push(e));
    await Promise.resolve();
    s.store.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default' } });
    clock.step(1000);
    expect(events).toHaveLength(1);
    expect(events[0]).toEqual({
      type: 'BOOKMARK',
      object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: s.store.resourceVersion } },
    });
    clock.step(1000);
    expect(events).toHaveLength(2);
  });

  it('ends the initial events with an annotated bookmark', async () => {
    const { s } = sandbox(0);
    s.store.create({ ...CM, metadata: { name: 'a', namespace: 'default' } });
    const events: WatchEvent[] = [];
    s.store.watch(CM, { allowWatchBookmarks: true }, (e) => events.push(e));
    await Promise.resolve();
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    expect((events[1]?.object as KubeObject).metadata.annotations).toEqual({ [INITIAL_EVENTS_END_ANNOTATION]: 'true' });
  });

  it('answers a compacted resourceVersion with one ERROR 410 event and ends', async () => {
    const { s } = sandbox();
    const a = s.store.create({ ...CM, metadata: { name: 'a', namespace: 'default' } });
    s.store.update({ ...a, data: { x: '1' } });
    s.faults.compactNow();
    const events: WatchEvent[] = [];
    let ended = false;
    s.store.watch(
      CM,
      { resourceVersion: a.metadata.resourceVersion },
      (e) => events.push(e),
      () => (ended = true),
    );
    await Promise.resolve();
    expect(summary(events)).toEqual(['ERROR 410']);
    expect((events[0]?.object as KubeStatus).reason).toBe('Expired');
    expect(ended).toBe(true);
  });

  it('closeAllWatches ends every stream', async () => {
    const { s } = sandbox();
    let ended = 0;
    s.store.watch(
      CM,
      {},
      () => {},
      () => ended++,
    );
    s.store.watch(
      CM,
      {},
      () => {},
      () => ended++,
    );
    await Promise.resolve();
    expect(s.openWatches).toBe(2);
    expect(s.faults.closeAllWatches()).toBe(2);
    expect(ended).toBe(2);
    expect(s.openWatches).toBe(0);
  });

  it('hands out copies: a listener cannot change stored state', async () => {
    const { s } = sandbox();
    const events: WatchEvent[] = [];
    s.store.watch(CM, { resourceVersion: s.store.resourceVersion }, (e) => events.push(e));
    await Promise.resolve();
    s.store.create({ ...CM, metadata: { name: 'a', namespace: 'default', labels: { k: 'v' } } });
    (events[0]?.object as KubeObject).metadata.labels!.k = 'mutated';
    expect(s.store.get(CM, 'a', 'default')?.metadata.labels).toEqual({ k: 'v' });
  });
});
