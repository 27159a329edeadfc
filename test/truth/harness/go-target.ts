// The Go controller as a user runs it: a controller-runtime manager that adopted the module, here two
// leader-elected replicas, each serving its stream on a port of its own, and `attach` reading both. The
// harness kills replicas with SIGKILL (no goodbye) and starts them again on the same address.
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { runAttach, type RunningAttach } from '../../../server/attach';
import { LoopbackClient } from '../../loopback/loopback-client';
import { go, startGo } from '../../go/support/go-tool';
import { until } from '../../go/support/cluster';
import { BEHAVIOUR } from '../oracle/behaviour';
import { readTruthLog, sortRecords, type ProcessTruth } from '../oracle/truth';
import type { OracleTarget } from './target';

const SOURCE = resolve(import.meta.dirname, '..', 'controllers', 'go');

interface Replica {
  identity: string;
  address: string;
  log: string;
  child?: ChildProcess;
  /** When the running process started: an election it logged before that belongs to an earlier run. */
  startedAt: number;
}

/** Builds the Go controller (the build cache is Go's own, outside the checkout). */
export async function buildGoController(dir: string): Promise<string> {
  const binary = join(dir, 'truth-mirror');
  await go(SOURCE, ['build', '-o', binary, '.'], 900_000);
  return binary;
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export async function startGoTarget(
  binary: string,
  kubeconfig: string,
  dir: string,
  replicas = 2,
): Promise<OracleTarget> {
  const all: Replica[] = [];
  for (let i = 0; i < replicas; i++) {
    const identity = `truth-${String.fromCharCode(97 + i)}`;
    all.push({ identity, address: `127.0.0.1:${await freePort()}`, log: join(dir, `${identity}.log`), startedAt: 0 });
  }
  const start = async (r: Replica): Promise<void> => {
    r.startedAt = Date.now();
    const started = await startGo(
      binary,
      ['--kubeconfig', kubeconfig, ...(replicas > 1 ? ['--leader-elect', '--lease-namespace', 'default'] : [])],
      {
        CONTROLLER_SCOPE_ADDR: r.address,
        CONTROLLER_SCOPE_PROCESS: r.identity,
        TRUTH_LOG: r.log,
        TRUTH_BEHAVIOUR: JSON.stringify(BEHAVIOUR),
      },
      /serving events on/,
    );
    r.child = started.child;
  };
  for (const r of all) await start(r);
  const attach: RunningAttach = await runAttach(
    { addresses: all.map((r) => r.address), port: 0, host: '127.0.0.1' },
    () => undefined,
  );
  const client = new LoopbackClient(attach.url);
  await client.connect();
  await client.hello();

  const records = () => {
    const raw = all.flatMap((r) => readTruthLog(r.log, r.identity));
    const elected = new Map<string, number>();
    for (const r of all) {
      for (const rec of raw) {
        if (rec.kind !== 'elected' || rec.process !== r.identity || rec.ts < r.startedAt) continue;
        elected.set(r.identity, Math.max(elected.get(r.identity) ?? 0, rec.ts));
      }
    }
    return { ...sortRecords(raw), elected };
  };
  const alive = (r: Replica): boolean =>
    r.child !== undefined && r.child.exitCode === null && r.child.signalCode === null;
  const kill = async (r: Replica): Promise<void> => {
    const c = r.child;
    if (!c || !alive(r)) return;
    const exited = new Promise((res) => c.once('exit', res));
    c.kill('SIGKILL');
    await exited;
  };
  const leader = (): Replica | undefined => {
    const e = records().elected;
    return all
      .filter((r) => alive(r) && e.has(r.identity))
      .sort((a, b) => (e.get(b.identity) ?? 0) - (e.get(a.identity) ?? 0))[0];
  };
  return {
    language: 'go',
    dashboardUrl: attach.url,
    view: () => client.view,
    records,
    processes: (): ProcessTruth[] => {
      const e = records().elected;
      // A replica's election counts while the replica that was elected still runs.
      return all.map((r) => ({
        identity: r.identity,
        alive: alive(r),
        ...(alive(r) && e.has(r.identity) ? { electedAt: e.get(r.identity) } : {}),
      }));
    },
    async cacheKeys(informer) {
      const ack = await client.inspect({ target: 'cache', informer, limit: 100_000 });
      return ack.ok && ack.result.target === 'cache' ? ack.result.keys : undefined;
    },
    generation: () => {
      const l = leader();
      if (!l) return undefined;
      return readTruthLog(l.log, l.identity).findLast((r) => r.kind === 'elected' && r.ts >= l.startedAt)?.generation;
    },
    async restart() {
      const r = leader() ?? all[0]!;
      await kill(r);
      await start(r);
    },
    async failover() {
      const was = leader();
      if (!was) return;
      await kill(was);
      if (replicas > 1)
        await until('another replica elected', () => leader() !== undefined && leader() !== was, 120_000);
      await start(was);
    },
    async stop() {
      client.close();
      for (const r of all) await kill(r);
      await attach.stop();
    },
  };
}
