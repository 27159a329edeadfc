// A Secret pushed through the whole pipeline — sandbox API server → reflector → informer cache → a controller
// reconciling it → recorder → socket, HTTP API and a recording — must show its metadata everywhere and its
// values nowhere.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/models/object';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import { SandboxServer } from '../../server/cluster/sandbox';
import { Recorder, RecordingWriter, startDashboard, type DashboardServer } from '../../server/dashboard';
import { objectSourceOver } from '../../server/dashboard/cache-object-source';
import {
  getConfig,
  newControllerManagedBy,
  newManager,
  newRegistry,
  reconcileFunc,
  type Manager,
} from '../../server/runtime';
import { client, connected, type TestClient } from '../../server/dashboard/transport/test-harness';

const VALUES = ['c3VwZXItc2VjcmV0LXBhc3N3b3Jk', 'plain-api-token-0123456789', 'sandbox-only-not-a-real-secret'];
const SECRET = { apiVersion: 'v1', kind: 'Secret' } as const;

async function eventually(cond: () => boolean | Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function assertClean(where: string, text: string): void {
  for (const v of VALUES) expect(text, `${where} leaks a Secret value`).not.toContain(v);
}

describe('Secret values never leave the process', () => {
  let sandbox: SandboxServer;
  let dir: string;
  let mgr: Manager;
  let recorder: Recorder;
  let dash: DashboardServer;
  let writer: RecordingWriter;
  let sock: TestClient;
  const received: string[] = [];
  const ac = new AbortController();
  let run: Promise<void>;
  const reconciled: string[] = [];

  beforeAll(async () => {
    sandbox = new SandboxServer({ port: 0 });
    await sandbox.start();
    dir = mkdtempSync(join(tmpdir(), 'secret-pipeline-'));
    await sandbox.writeKubeconfig(join(dir, 'kubeconfig'));
    recorder = new Recorder({ flushIntervalMs: 20, objectSource: objectSourceOver(() => mgr.getCache()) });
    const registry = newRegistry(false);
    mgr = newManager(getConfig({ kubeconfig: join(dir, 'kubeconfig'), argv: [], env: {} }), {
      probe: recorder,
      registry,
      gracefulShutdownTimeoutMs: 2_000,
    });
    const c = mgr.getClient();
    await newControllerManagedBy(mgr)
      .named('secret-reader')
      .for(SECRET)
      .complete(
        reconcileFunc(async (_ctx, req) => {
          // Read through the cache, as a real controller would, so the cached copy is what the dashboard shows.
          const s = await c.get(SECRET, req);
          reconciled.push(s.metadata.name ?? '');
          return {};
        }),
      );
    dash = await startDashboard({ recorder, registry, port: 0, log: () => undefined, staticDir: '/nonexistent' });
    writer = new RecordingWriter({
      recorder,
      file: join(dir, 'recording.csrec'),
      cluster: { kind: 'sandbox', writable: true },
      controllers: ['secret-reader'],
    });
    sock = client(dash);
    sock.onAny((event: string, ...args: unknown[]) => received.push(JSON.stringify([event, args])));
    await connected(sock);
    received.push(JSON.stringify(await sock.emitWithAck('hello', { protocolVersion: PROTOCOL_VERSION })));
    run = mgr.start(ac.signal);
    await mgr.elected();
  }, 30_000);

  afterAll(async () => {
    sock?.disconnect();
    await dash?.close();
    ac.abort();
    await run;
    await writer?.close();
    await sandbox?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows the Secret on the socket, in /api and in the recording, without its values', async () => {
    const secret: KubeObject = {
      ...SECRET,
      metadata: {
        name: 'db-credentials',
        namespace: 'default',
        annotations: { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ data: { p: VALUES[0] } }) },
      },
      data: { password: VALUES[0] },
      stringData: { token: VALUES[1], note: VALUES[2] },
    };
    await mgr.getClient().create(secret);
    await eventually(() => reconciled.length >= 1, 'the secret reconciled');
    // Change it once, so there is a version history with a diff to hand out too.
    await mgr
      .getClient()
      .patch(
        { ...SECRET, metadata: { name: 'db-credentials', namespace: 'default' } },
        { type: 'merge', data: () => ({ metadata: { labels: { rotated: 'yes' } } }) },
      );
    await eventually(() => reconciled.length >= 2, `the secret reconciled twice (got ${reconciled.length})`);

    const inspected = await sock.emitWithAck('inspect', {
      target: 'object',
      object: { gvk: 'v1/Secret', namespace: 'default', name: 'db-credentials' },
    });
    received.push(JSON.stringify(inspected));
    // The object is really there (so this test can fail): its name and label come through.
    expect(JSON.stringify(inspected)).toContain('rotated');
    await eventually(
      () => received.some((r) => r.includes('db-credentials') && r.includes('"batch"')),
      'a batch naming the secret',
    );

    const base = dash.url.replace(/\/$/, '');
    const obj = await (await fetch(`${base}/api/objects/_/v1/Secret/default/db-credentials`)).text();
    expect(obj).toContain('db-credentials');
    const view = await (await fetch(`${base}/api/view`)).text();
    expect(view).toContain('secret-reader');
    await writer.close();
    const recording = gunzipSync(readFileSync(join(dir, 'recording.csrec'))).toString('utf8');
    expect(recording).toContain('db-credentials');

    assertClean('the socket', received.join('\n'));
    assertClean('/api/objects', obj);
    assertClean('/api/view', view);
    assertClean('the recording', recording);
    // The sandbox itself holds the values (redaction is the dashboard's job, not the API server's).
    expect(JSON.stringify(sandbox.store.get(SECRET, 'db-credentials', 'default'))).toContain(VALUES[0]);
  });
});
