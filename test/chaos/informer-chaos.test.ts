// Chaos for the informer machinery: a real SharedIndexInformer lists and watches configmaps over HTTP
// from the sandbox while a seeded script interleaves writes with faults (closed, expired and stalled
// watches, latency, 5xx/429 on list and watch, compaction). Once the faults are lifted the indexer must
// converge to what a fresh LIST says, key for key and resourceVersion for resourceVersion; the reflector
// must have relisted on the way. Lives under test/ because server/runtime may not import server/cluster.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/models/object';
import type { FifoKind } from '../../server/runtime/cache/shared-informer';
import { newSharedIndexInformer } from '../../server/runtime/cache/shared-informer';
import { getConfig } from '../../server/runtime/client/config';
import { HttpClient } from '../../server/runtime/client/http';
import { newListWatchFromClient } from '../../server/runtime/client/list-watch';
import type { ListerWatcher } from '../../server/runtime/client/lister-watcher';
import { RecordingProbe } from '../../server/runtime/testing/recording-probe';
import { SandboxServer } from '../../server/cluster/sandbox';
import type { StampedEvent } from '../../shared/protocol/events';
import { reduce } from '../../shared/protocol/reduce';
import { isReflectorTransition, transitionId } from '../../shared/protocol/reflector-machine';
import { createView } from '../../shared/protocol/view';
import { diagramEdges } from '../../web/panels/reflector/state-diagram-model';
import type { WatchTarget } from '../../server/cluster/sandbox/faults';
import { prng } from '../../shared/prng';

/**
 * Under every fault the sandbox injects, the reflector changes state only along edges of the shared table,
 * each change starting where the last ended, and the Reflector panel's diagram (built from the reduced view,
 * as the browser builds it) counts exactly the changes the runtime reported, edge by edge.
 */
function expectDiagramMatches(probe: RecordingProbe): void {
  const changes = probe.ofKind('reflector.state');
  let at = 'idle';
  for (const e of changes) {
    expect(isReflectorTransition(e.from, e.to), `${e.from}→${e.to} (${e.reason})`).toBe(true);
    expect(e.from).toBe(at);
    at = e.to;
  }
  const emitted = new Map<string, number>();
  for (const e of changes) emitted.set(transitionId(e.from, e.to), (emitted.get(transitionId(e.from, e.to)) ?? 0) + 1);
  // Every path the issue names was taken: 410 and errors go through backoff before a relist.
  for (const edge of ['watching→backoff', 'backoff→relisting', 'relisting→watching'])
    expect(emitted.get(edge), edge).toBeGreaterThan(0);
  const stamped = probe.events.map((e, i) => ({ ...e, seq: i + 1, ts: 1_000 + i }) as StampedEvent);
  const counters = reduce(createView(), stamped).informers['v1/ConfigMap']?.counters;
  expect(counters).toBeDefined();
  if (!counters) return;
  for (const arrow of diagramEdges(counters)) {
    const want = arrow.edges.reduce((n, t) => n + (emitted.get(transitionId(t.from, t.to)) ?? 0), 0);
    expect(arrow.count, `${arrow.from}→${arrow.to}`).toBe(want);
  }
}

const NS = 'chaos';
const CM = { apiVersion: 'v1', kind: 'ConfigMap' };
const NAMES = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
/** Seeds of the scripts, one per FIFO kind; change them to explore, keep them fixed to reproduce. */
const SEEDS: Record<FifoKind, number> = { DeltaFIFO: 20261129, RealFIFO: 7 };

type Step =
  | { op: 'write'; name: string }
  | { op: 'pause'; ms: number }
  | { op: 'closeWatches'; target: WatchTarget }
  | { op: 'expireWatches'; target: WatchTarget }
  | { op: 'compactNow' }
  | { op: 'stall'; target: WatchTarget; steps: number }
  | { op: 'latency'; ms: number; steps: number }
  | { op: 'errors'; rate: number; code: number; verbs: ('list' | 'watch')[]; steps: number };

const target = fc.constantFrom<WatchTarget>({}, { resource: 'configmaps' }, { namespace: NS }, { group: '' });
const steps = fc.integer({ min: 1, max: 8 });
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ op: fc.constant('write' as const), name: fc.constantFrom(...NAMES) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('pause' as const), ms: fc.integer({ min: 5, max: 60 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('closeWatches' as const), target }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('expireWatches' as const), target }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('compactNow' as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('stall' as const), target, steps }) },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('latency' as const), ms: fc.integer({ min: 10, max: 120 }), steps }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('errors' as const),
      rate: fc.double({ min: 0.2, max: 0.9, noNaN: true }),
      code: fc.constantFrom(500, 503, 429),
      verbs: fc.constantFrom<('list' | 'watch')[]>(['list'], ['watch'], ['list', 'watch']),
      steps,
    }),
  },
);

const FAULT_OPS: Step['op'][] = ['closeWatches', 'expireWatches', 'compactNow', 'stall', 'latency', 'errors'];
const ROUNDS = 3;
/** A script holds every kind of fault at least once. */
const scriptArb = fc
  .array(stepArb, { minLength: 40, maxLength: 60 })
  .filter((script) => FAULT_OPS.every((op) => script.some((x) => x.op === op)));

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls until `done` holds or `ms` have passed (bounded: the test fails rather than hangs). */
async function eventually(done: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await done()) return true;
    if (Date.now() > deadline) return false;
    await sleep(25);
  }
}

const rvByKey = (items: KubeObject[]): Record<string, string> =>
  Object.fromEntries(
    items
      .map((o) => [`${o.metadata.namespace}/${o.metadata.name}`, o.metadata.resourceVersion ?? ''] as const)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)),
  );

interface Rig {
  sandbox: SandboxServer;
  abort: AbortController;
  running?: Promise<void>;
  dir: string;
}

const rigs: Rig[] = [];

afterEach(async () => {
  for (const r of rigs.splice(0)) {
    r.abort.abort();
    await r.running;
    await r.sandbox.stop();
    rmSync(r.dir, { recursive: true, force: true });
  }
});

async function runStep(
  sandbox: SandboxServer,
  step: Step,
  i: number,
  later: (at: number, fn: () => void) => void,
): Promise<void> {
  const f = sandbox.faults;
  switch (step.op) {
    case 'write': {
      const cur = sandbox.store.get(CM, step.name, NS);
      if (!cur) sandbox.store.create({ ...CM, metadata: { name: step.name, namespace: NS }, data: { i: `${i}` } });
      else if (i % 3 === 0) sandbox.store.delete(CM, step.name, NS);
      else sandbox.store.update({ ...cur, data: { i: `${i}` } });
      return;
    }
    case 'pause':
      return sleep(step.ms);
    case 'closeWatches':
      f.closeWatches(step.target);
      return;
    case 'expireWatches':
      f.expireWatches(step.target);
      return;
    case 'compactNow':
      f.compactNow();
      return;
    case 'stall': {
      const id = f.stallWatches(step.target);
      later(i + step.steps, () => f.unstallWatches(id));
      return;
    }
    case 'latency': {
      const id = f.addRule({ kind: 'latency', ms: step.ms, verbs: ['list', 'watch'] });
      later(i + step.steps, () => f.removeRule(id));
      return;
    }
    case 'errors': {
      const id = f.addRule({ kind: 'errors', rate: step.rate, code: step.code, verbs: step.verbs });
      later(i + step.steps, () => f.removeRule(id));
      return;
    }
  }
}

describe.each<FifoKind>(['DeltaFIFO', 'RealFIFO'])('informer chaos (%s)', (fifo) => {
  it('converges to a fresh LIST once the faults are lifted, relisting on the way', async () => {
    const seed = SEEDS[fifo];
    const sandbox = new SandboxServer({
      port: 0,
      bookmarkIntervalMs: 250,
      garbageCollector: false,
      random: prng(seed),
    });
    const rig: Rig = { sandbox, abort: new AbortController(), dir: mkdtempSync(join(tmpdir(), 'chaos-')) };
    rigs.push(rig);
    await sandbox.start();
    await sandbox.writeKubeconfig(join(rig.dir, 'kubeconfig'));
    sandbox.store.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    for (const name of NAMES.slice(0, 3)) sandbox.store.create({ ...CM, metadata: { name, namespace: NS } });

    const config = getConfig({ kubeconfig: join(rig.dir, 'kubeconfig'), argv: [], env: {} });
    // No transparent Retry-After retries: the injected 5xx/429 must reach the reflector.
    const http = new HttpClient({ config, maxRetries: 0 });
    const lw: ListerWatcher = newListWatchFromClient({
      http,
      gvr: { group: '', version: 'v1', resource: 'configmaps' },
      namespace: NS,
    });
    const probe = new RecordingProbe();
    const informer = newSharedIndexInformer({
      listerWatcher: lw,
      objectType: 'v1/ConfigMap',
      fifo,
      probe,
      random: prng(seed + 1),
      backoff: { durationMs: 20, factor: 2, jitter: 0.5, capMs: 200, resetIntervalMs: 2_000 },
      maxInternalErrorRetryDurationMs: 0,
    });
    rig.running = informer.run(rig.abort.signal);
    expect(await eventually(() => informer.hasSynced(), 10_000)).toBe(true);

    const fresh = async () => rvByKey((await lw.list({})).items);
    const cached = () => rvByKey(informer.getIndexer().list());
    const converged = async () => JSON.stringify(cached()) === JSON.stringify(await fresh());

    const watching = () => probe.ofKind('reflector.state').at(-1)?.to === 'watching';
    const scripts = fc.sample(scriptArb, { seed, numRuns: ROUNDS });
    expect(scripts).toHaveLength(ROUNDS);
    let i = 0;
    for (const [round, script] of scripts.entries()) {
      // Lifts of the timed faults, by the step index at which they happen.
      const lifts = new Map<number, (() => void)[]>();
      const later = (at: number, fn: () => void) => lifts.set(at, [...(lifts.get(at) ?? []), fn]);
      for (const step of script) {
        await runStep(sandbox, step, i, later);
        for (const lift of lifts.get(i) ?? []) lift();
        lifts.delete(i);
        i++;
        // Let the informer move between steps so faults land in different reflector states.
        await sleep(8);
      }
      // Every round ends with a watch stalled while writes happen, so only its catching up can bring them in.
      sandbox.faults.clear();
      expect(await eventually(watching, 10_000)).toBe(true);
      sandbox.faults.stallWatches({ resource: 'configmaps' });
      for (const step of script.filter((x) => x.op === 'write').slice(0, 4)) await runStep(sandbox, step, i++, later);
      await sleep(50);
      sandbox.faults.clear();
      const ok = await eventually(converged, 15_000);
      expect(cached(), `round ${round} of seed ${seed}: ${script.map((x) => x.op).join(' ')}`).toEqual(await fresh());
      expect(ok).toBe(true);
    }
    expect(probe.ofKind('reflector.error').length).toBeGreaterThan(0);

    // A deterministic 410 at the end, once the reflector watches again: it must relist, then converge.
    expect(await eventually(watching, 10_000)).toBe(true);
    const relistsBefore = probe.ofKind('reflector.listBegin').filter((e) => e.relist).length;
    expect(sandbox.faults.expireWatches({ resource: 'configmaps', namespace: NS }).expired).toBeGreaterThan(0);
    sandbox.store.create({ ...CM, metadata: { name: 'after-expiry', namespace: NS } });
    expect(
      await eventually(
        () => probe.ofKind('reflector.listBegin').filter((e) => e.relist).length > relistsBefore,
        10_000,
      ),
    ).toBe(true);
    expect(await eventually(converged, 15_000)).toBe(true);
    expect(cached()).toHaveProperty(`${NS}/after-expiry`);

    const relists = probe.ofKind('reflector.listBegin').filter((e) => e.relist);
    expect(relists.some((e) => /410/.test(e.cause))).toBe(true);
    expect(probe.ofKind('reflector.watchEnd').length).toBeGreaterThan(1);
    expectDiagramMatches(probe);
  }, 40_000);
});
