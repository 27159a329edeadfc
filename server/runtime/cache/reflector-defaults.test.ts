// The defaults a reflector and an informer take when the caller sets nothing: those of the upstream release
// named in UPSTREAM_VERSION (client-go's WatchListClient gate on since 1.35, InOrderInformers since 1.33),
// client-go's escape for clients without WatchList semantics, and the switch to older releases' defaults.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { ScriptedListWatch } from '../testing/scripted-list-watch';
import { runtimeDefaults, setRuntimeDefaults, UPSTREAM_VERSION, type RuntimeDefaults } from '../upstream';
import { metaNamespaceKeyFunc } from './keys';
import { Reflector } from './reflector';
import { pod } from '../testing/reflector-fixtures';
import { newSharedIndexInformer } from './shared-informer';
import { newStore } from './store';

let clock: FakeClock;
let ctl: AbortController;
let saved: RuntimeDefaults;
beforeEach(() => {
  clock = new FakeClock();
  ctl = new AbortController();
  saved = setRuntimeDefaults({});
});
afterEach(() => {
  ctl.abort();
  setRuntimeDefaults(saved);
});

function run(lw: ScriptedListWatch) {
  const store = newStore<KubeObject>(metaNamespaceKeyFunc);
  const r = new Reflector<KubeObject>({ listerWatcher: lw, store, name: 'test', clock, random: () => 0 });
  void r.run(ctl.signal);
  return store;
}

describe('reflector defaults (client-go feature gates)', () => {
  it('names one upstream release, whose defaults are the ones in force', () => {
    expect(UPSTREAM_VERSION.controllerRuntime).toMatch(/^v0\.\d+\.\d+$/);
    // Every default of v0.24/v0.25 but AtomicFIFO, which stays off (the runtime README says why).
    expect(runtimeDefaults()).toEqual({
      watchListClient: true,
      inOrderInformers: true,
      usePriorityQueue: true,
      atomicFIFO: false,
    });
  });

  it('streams the initial state with a WatchList by default, with no LIST', async () => {
    const lw = new ScriptedListWatch({ clock, initialObjects: [pod('a', '')], watchListSemantics: true });
    const store = run(lw);
    await flushMicrotasks();
    expect(lw.listCalls).toHaveLength(0);
    expect(lw.watchCalls[0]).toMatchObject({
      sendInitialEvents: true,
      resourceVersionMatch: 'NotOlderThan',
      allowWatchBookmarks: true,
      resourceVersion: '',
    });
    expect(store.listKeys()).toEqual(['ns/a']);
  });

  it('falls back to LIST + WATCH when the server refuses the stream, as client-go does', async () => {
    const lw = new ScriptedListWatch({
      clock,
      initialObjects: [pod('a', '')],
      watchListSemantics: true,
      rejectWatchList: true,
    });
    const store = run(lw);
    await flushMicrotasks();
    expect(lw.watchCalls[0]?.sendInitialEvents).toBe(true);
    expect(lw.listCalls).toHaveLength(1);
    // The watch after the fallback LIST is a plain one from the list's resourceVersion.
    expect(lw.watchCalls[1]).toMatchObject({ resourceVersion: lw.resourceVersion, allowWatchBookmarks: true });
    expect(lw.watchCalls[1]?.sendInitialEvents).toBeUndefined();
    expect(store.listKeys()).toEqual(['ns/a']);
  });

  it('LISTs when the lister-watcher declares no WatchList semantics (client-go fakes)', async () => {
    const lw = new ScriptedListWatch({ clock, initialObjects: [pod('a', '')] });
    run(lw);
    await flushMicrotasks();
    expect(lw.listCalls).toHaveLength(1);
    expect(lw.watchCalls.every((c) => c.sendInitialEvents === undefined)).toBe(true);
  });

  it('LISTs with the v0.21 defaults (client-go 1.34: WatchListClient off)', async () => {
    setRuntimeDefaults('v0.21');
    const lw = new ScriptedListWatch({ clock, initialObjects: [pod('a', '')], watchListSemantics: true });
    run(lw);
    await flushMicrotasks();
    expect(lw.listCalls).toHaveLength(1);
  });

  it('informers use RealFIFO by default and DeltaFIFO with the v0.20 defaults', () => {
    const lw = new ScriptedListWatch({ clock });
    expect(newSharedIndexInformer<KubeObject>({ listerWatcher: lw, clock }).fifoKind).toBe('RealFIFO');
    setRuntimeDefaults('v0.20');
    expect(newSharedIndexInformer<KubeObject>({ listerWatcher: lw, clock }).fifoKind).toBe('DeltaFIFO');
  });

  it('refuses an unknown release with the ones it knows', () => {
    expect(() => setRuntimeDefaults('v0.9' as 'v0.20')).toThrow(
      /unknown upstream release "v0.9": use one of v0.24, v0.23/,
    );
  });
});
