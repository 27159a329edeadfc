// The oracle's own watch must outlive the server's watch timeout: kube-apiserver ends each watch after 30–60
// minutes, and a truth that stopped there read every later version as "never delivered" (go-apiserver seed
// 5164, 27 minutes into a run). Here the sandbox ends each watch after a second.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SandboxServer } from '../../../server/cluster/sandbox';
import { ServerWatch } from './server-watch';

let server: SandboxServer;
let dir: string;
let watch: ServerWatch | undefined;

beforeAll(async () => {
  server = new SandboxServer({});
  await server.start();
  dir = await mkdtemp(join(tmpdir(), 'server-watch-'));
  await server.writeKubeconfig(join(dir, 'kubeconfig'));
});
afterAll(async () => {
  watch?.stop();
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

async function until(what: string, cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`still not: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it('resumes a watch the server ended, from the last version it saw, and misses nothing after', async () => {
  const w = await ServerWatch.start(join(dir, 'kubeconfig'), { timeoutSeconds: 1 });
  watch = w;
  const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' } });
  const a = server.store.create(cm('before'));
  await until(
    'the first version delivered',
    () => !!w.delivered(a.metadata.uid ?? '', a.metadata.resourceVersion ?? ''),
  );
  await until('the server to end both watches and the oracle to resume them', () => w.resumes >= 2);
  const b = server.store.create(cm('after'));
  await until(
    'a version written after the resume delivered',
    () => !!w.delivered(b.metadata.uid ?? '', b.metadata.resourceVersion ?? ''),
  );
  expect(() => w.check()).not.toThrow();
});
