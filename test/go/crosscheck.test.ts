// The cross-check: one scripted scenario (test/go/crosscheck/: a flaky controller with error backoff and
// RequeueAfter, a hot loop, an owner-aware controller) run through our TypeScript runtime
// (`controller-scope run scenario.ts`) and through controller-runtime + the Go module (main.go, with
// `controller-scope attach`), each against a fresh embedded sandbox, each read through the dashboard's own
// reducer over socket.io. Every count in the scenario follows from the script, not from timing, so the facts
// below must be equal, and equal to what controller-runtime's semantics say they are.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxServer } from '../../server/cluster/sandbox';
import { runAttach, type RunningAttach } from '../../server/attach';
import type { KeyView, RuntimeView } from '../../shared/protocol/view';
import { LoopbackClient } from '../loopback/loopback-client';
import { startCli, type CliProcess } from '../run/support/cli-process';
import { apply, until } from './support/cluster';
import { REPO, go, goBinary, startGo } from './support/go-tool';
import { CONTROLLER_RUNTIME_VERSIONS } from './support/versions';

const SCENARIO = join(REPO, 'test', 'go', 'crosscheck');
const MODULE = 'github.com/controller-scope/controller-scope/go';
const HOT_LIMIT = 14;

/** The objects both runs start from, created before either controller starts. */
const OBJECTS = [
  { name: 'flaky-a', data: { fails: '3' } },
  { name: 'flaky-b', data: { fails: '1' } },
  { name: 'hot-a', data: { n: '0', limit: String(HOT_LIMIT) } },
  { name: 'owner-a', data: {} },
];

/** Reconciles per key once the scenario has run out: fails + 2 for flaky, limit + 1 for hot, 2 for owner. */
const EXPECTED: Record<string, Record<string, number>> = {
  flaky: { 'default/flaky-a': 5, 'default/flaky-b': 3 },
  hot: { 'default/hot-a': HOT_LIMIT + 1 },
  owner: { 'default/owner-a': 2 },
};

/** What must agree about one key: no times, no seqs, no worker numbers. */
interface KeyFacts {
  reconciles: number;
  failuresBeforeSuccess: number;
  outcomes: (string | undefined)[];
  /** Each reconcile's causes, as type (and event type when an informer event). */
  causes: string[][];
  /** Rate-limited requeues: the limiter's count after each, and the delay it gave. */
  backoff: { requeues: number; delayMs: number; cause: string }[];
  ownerSources: string[];
  hotLoop: boolean;
  selfCaused: number;
  final: { state: string; dirty: boolean; requeues: number };
}

function factsOf(k: KeyView): KeyFacts {
  const firstSuccess = k.history.findIndex((r) => r.outcome !== 'error');
  return {
    reconciles: k.reconciles,
    failuresBeforeSuccess: firstSuccess < 0 ? k.history.length : firstSuccess,
    outcomes: k.history.map((r) => r.outcome),
    causes: k.history.map((r) => r.causes.map((c) => (c.eventType ? `${c.type}:${c.eventType}` : c.type))),
    backoff: (k.backoff ?? []).map((b) => ({ requeues: b.requeues, delayMs: b.delayMs, cause: b.cause })),
    ownerSources: k.history.flatMap((r) =>
      r.causes
        .filter((c) => c.type === 'owner')
        .map((c) => `${c.source?.gvk} ${c.source?.namespace}/${c.source?.name}`),
    ),
    hotLoop: k.hotLoop !== undefined,
    selfCaused: k.history.filter((r) => r.selfCaused).length,
    final: { state: k.state, dirty: k.dirty, requeues: k.requeues },
  };
}

const settled = (v: RuntimeView): boolean =>
  Object.entries(EXPECTED).every(([name, keys]) =>
    Object.entries(keys).every(([key, n]) => {
      const k = v.controllers[name]?.keys[key];
      return k !== undefined && k.reconciles >= n && k.state === 'idle' && k.lastReconcile?.endTs !== undefined;
    }),
  );

/** Waits for the scenario to run out, then reads the facts of every expected key. */
async function factsFrom(view: () => RuntimeView): Promise<Record<string, KeyFacts>> {
  const read = (): Record<string, KeyFacts | undefined> => {
    const out: Record<string, KeyFacts | undefined> = {};
    for (const [name, keys] of Object.entries(EXPECTED))
      for (const key of Object.keys(keys)) {
        const k = view().controllers[name]?.keys[key];
        out[`${name} ${key}`] = k && factsOf(k);
      }
    return out;
  };
  await until('the scenario to run out', () => settled(view()), 60_000).catch((err: unknown) => {
    throw new Error(`${(err as Error).message}; the view holds ${JSON.stringify(read())}`);
  });
  return read() as Record<string, KeyFacts>;
}

async function sandboxWithObjects(dir: string): Promise<SandboxServer> {
  const sandbox = new SandboxServer({ port: 0 });
  const { url } = await sandbox.start();
  await sandbox.writeKubeconfig(join(dir, 'kubeconfig'));
  for (const o of OBJECTS)
    await apply(url, '/api/v1/namespaces/default/configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: o.name, namespace: 'default' },
      data: o.data,
    });
  return sandbox;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

let tsFacts: Promise<Record<string, KeyFacts>> | undefined;
/** The TypeScript run, once for every version compared against it. */
function typescriptFacts(): Promise<Record<string, KeyFacts>> {
  tsFacts ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crosscheck-ts-'));
    const sandbox = await sandboxWithObjects(dir);
    cleanups.push(() => sandbox.stop());
    const cli: CliProcess = await startCli(
      ['run', join(SCENARIO, 'scenario.ts'), '--kubeconfig', join(dir, 'kubeconfig'), '--allow-writes', '--port', '0'],
      { env: { KUBECONFIG: '' } },
    );
    cleanups.push(() => cli.stop());
    return factsFrom(() => cli.client.view);
  })();
  return tsFacts;
}

async function goFacts(pins: string[]): Promise<{ facts: Record<string, KeyFacts>; controllerRuntime?: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'crosscheck-go-'));
  const project = join(dir, 'src');
  const binary = join(dir, 'crosscheck');
  cpSync(SCENARIO, project, { recursive: true });
  const build = go(project, ['mod', 'edit', `-replace=${MODULE}=${join(REPO, 'go')}`])
    .then(() => (pins.length ? go(project, ['get', ...pins]) : ''))
    .then(() => go(project, ['build', '-o', binary, '.']));
  const sandbox = await sandboxWithObjects(dir);
  cleanups.push(() => sandbox.stop());
  await build;
  const started = await startGo(
    binary,
    ['--kubeconfig', join(dir, 'kubeconfig')],
    { CONTROLLER_SCOPE_ADDR: '127.0.0.1:0', CONTROLLER_SCOPE_PROCESS: 'crosscheck' },
    /serving events on (127\.0\.0\.1:\d+)/,
  );
  const child: ChildProcess = started.child;
  cleanups.push(() => void child.kill());
  const attach: RunningAttach = await runAttach(
    { addresses: [started.match[1] as string], port: 0, host: '127.0.0.1' },
    () => undefined,
  );
  cleanups.push(() => attach.stop());
  const client = new LoopbackClient(attach.url);
  cleanups.push(() => client.close());
  await client.connect();
  await client.hello();
  const facts = await factsFrom(() => client.view);
  return { facts, controllerRuntime: attach.connections[0]?.controllerRuntime };
}

describe.skipIf(!goBinary())('cross-check: the same scenario through our runtime and through Go + the module', () => {
  it('our runtime shows what controller-runtime semantics say', { timeout: 300_000 }, async () => {
    const f = await typescriptFacts();
    const flakyA = f['flaky default/flaky-a'];
    expect(flakyA?.failuresBeforeSuccess).toBe(3);
    expect(flakyA?.outcomes).toEqual(['error', 'error', 'error', 'requeueAfter', 'success']);
    expect(flakyA?.causes).toEqual([
      ['event:create'],
      ['errorBackoff'],
      ['errorBackoff'],
      ['errorBackoff'],
      ['requeueAfter'],
    ]);
    // The default limiter: 5 ms doubling per failure (the bucket's burst is far from spent).
    expect(flakyA?.backoff.map((b) => b.delayMs)).toEqual([5, 10, 20]);
    expect(flakyA?.backoff.map((b) => b.requeues)).toEqual([1, 2, 3]);
    expect(f['flaky default/flaky-b']?.backoff.map((b) => b.delayMs)).toEqual([5]);
    const hot = f['hot default/hot-a'];
    expect(hot?.hotLoop).toBe(true);
    expect(hot?.selfCaused).toBe(HOT_LIMIT);
    const owner = f['owner default/owner-a'];
    expect(owner?.causes).toEqual([['event:create'], ['owner:create']]);
    expect(owner?.ownerSources).toEqual(['v1/Secret default/owner-a-secret']);
    for (const k of Object.values(f)) expect(k.final).toEqual({ state: 'idle', dirty: false, requeues: 0 });
  });

  describe.each(CONTROLLER_RUNTIME_VERSIONS)(
    'Go on controller-runtime $controllerRuntime',
    ({ controllerRuntime, pins }) => {
      it('agrees with our runtime on every fact that must agree', { timeout: 900_000 }, async () => {
        const [ours, theirs] = await Promise.all([typescriptFacts(), goFacts(pins)]);
        expect(theirs.controllerRuntime).toBe(controllerRuntime);
        expect(theirs.facts).toEqual(ours);
      });
    },
  );
});
