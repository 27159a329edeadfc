// The servers a chaos run can aim at. Each gives the runner the same handles: its loopback port (for the
// fault proxy to forward to), a kubeconfig for any server URL (the proxy's), a direct client (churn and
// the fresh LIST bypass the proxy), a compaction, and, where a real process exists, SIGKILL + restart.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ControlPlane } from '../../../server/cluster/envtest';
import { SandboxServer } from '../../../server/cluster/sandbox';
import { getConfig, newRestClient } from '../../../server/runtime';
import type { Client } from '../../../server/runtime';

export type TargetName = 'sandbox' | 'envtest';

export interface ChaosTarget {
  readonly name: TargetName;
  /** The server's own loopback port. */
  readonly port: number;
  /** Host header the proxy must write on requests (servers with a Host allow-list). */
  readonly hostHeader?: string;
  /** A kubeconfig file whose server is `url` (same credentials and CA). */
  kubeconfigFor(url: string): string;
  /** Writes and fresh LISTs, straight to the server. */
  readonly direct: Client;
  /** Compacts storage to its current revision; resolves to the compacted revision. */
  compact(): Promise<number>;
  /** SIGKILL kube-apiserver, leaving etcd running (absent on the sandbox). */
  killApiServer?: () => Promise<void>;
  /** Start the killed kube-apiserver again on the same port and etcd data; resolves once it is ready. */
  startApiServer?: () => Promise<void>;
  stop(): Promise<void>;
}

function rewriteServer(kubeconfig: string, from: string, to: string): string {
  if (!kubeconfig.includes(from)) throw new Error(`kubeconfig does not name ${from}`);
  return kubeconfig.split(from).join(to);
}

function directClient(kubeconfig: string): Client {
  // Churn must not stall behind a transparent retry loop; failed writes are counted and skipped.
  return newRestClient(getConfig({ kubeconfig, argv: [], env: {} }), { maxRetries: 0 });
}

export async function startSandboxTarget(random: () => number): Promise<ChaosTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'controller-scope-chaos-'));
  const sandbox = new SandboxServer({ port: 0, bookmarkIntervalMs: 250, garbageCollector: false, random });
  await sandbox.start();
  const file = join(dir, 'kubeconfig');
  await sandbox.writeKubeconfig(file);
  const base = readFileSync(file, 'utf8');
  const url = sandbox.url.replace(/\/$/, '');
  let n = 0;
  return {
    name: 'sandbox',
    port: Number(new URL(url).port),
    hostHeader: new URL(url).host,
    kubeconfigFor(to) {
      const path = join(dir, `kubeconfig-${++n}`);
      writeFileSync(path, rewriteServer(base, url, to), { mode: 0o600 });
      return path;
    },
    direct: directClient(file),
    compact: async () => sandbox.faults.compactNow(),
    async stop() {
      await sandbox.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** etcd's JSON gateway: the current revision, then a physical compaction to it (no etcdctl needed). */
async function compactEtcd(etcdUrl: string): Promise<number> {
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${etcdUrl}${path}`, { method: 'POST', body: JSON.stringify(body) });
    const text = await r.text();
    // Already compacted there (by the apiserver's own compaction, or twice with no write between): fine.
    if (!r.ok && /has been compacted/.test(text)) return {};
    if (!r.ok) throw new Error(`etcd ${path}: ${r.status} ${text}`);
    return JSON.parse(text) as { header?: { revision?: string } };
  };
  const head = await post('/v3/kv/range', { key: Buffer.from('/').toString('base64') });
  const revision = Number(head.header?.revision ?? 0);
  if (revision > 0) await post('/v3/kv/compaction', { revision: String(revision), physical: true });
  return revision;
}

export async function startEnvtestTarget(opts: { compactionIntervalS?: number } = {}): Promise<ChaosTarget> {
  const plane = new ControlPlane({
    // The apiserver compacts etcd on its own too; a short interval makes that happen inside runs.
    apiServerFlags: { 'etcd-compaction-interval': `${opts.compactionIntervalS ?? 5}s` },
  });
  const info = await plane.start();
  const dir = mkdtempSync(join(tmpdir(), 'controller-scope-chaos-'));
  const url = info.apiServerUrl.replace(/\/$/, '');
  let n = 0;
  return {
    name: 'envtest',
    port: Number(new URL(url).port),
    kubeconfigFor(to) {
      const path = join(dir, `kubeconfig-${++n}`);
      writeFileSync(path, rewriteServer(info.kubeconfig, url, to), { mode: 0o600 });
      return path;
    },
    direct: directClient(info.kubeconfigPath),
    compact: () => compactEtcd(info.etcdUrl),
    killApiServer: () => plane.killApiServer(),
    startApiServer: () => plane.startApiServer(),
    async stop() {
      await plane.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
