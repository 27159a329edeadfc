// The sandbox's CronJob controller against the sandbox, with the clock it reads under the test's control.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../shared/models/object';
import { getConfig } from '../../../runtime/client';
import { newRestClient } from '../../../runtime/client';
import type { ReconcileContext } from '../../../runtime';
import { SandboxServer } from '../server';
import { cronJobReconciler } from './cronjob-controller';

const CRONJOB = { apiVersion: 'batch/v1', kind: 'CronJob' } as const;
const JOB = { apiVersion: 'batch/v1', kind: 'Job' } as const;
let server: SandboxServer;
let dir: string;

beforeAll(async () => {
  server = new SandboxServer({ port: 0 });
  await server.start();
  dir = await mkdtemp(join(tmpdir(), 'cronjob-'));
  await server.writeKubeconfig(join(dir, 'kubeconfig'));
});
afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

const ctx = { signal: new AbortController().signal, reconcileID: 'test' } as unknown as ReconcileContext;

describe('CronJob controller', () => {
  it('creates one Job per due minute, honours Forbid, and requeues for the next minute', async () => {
    const client = newRestClient(getConfig({ kubeconfig: join(dir, 'kubeconfig'), argv: [], env: {} }));
    const cj = await client.create<KubeObject>({
      ...CRONJOB,
      metadata: { name: 'tick', namespace: 'default' },
      spec: {
        schedule: '*/5 * * * *',
        concurrencyPolicy: 'Forbid',
        jobTemplate: {
          metadata: { labels: { from: 'tick' } },
          spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
        },
      },
    });
    const created = Date.parse(cj.metadata.creationTimestamp ?? '');
    const firstDue = (Math.floor(created / 300_000) + 1) * 300_000;
    let now = firstDue - 1_000;
    const r = cronJobReconciler(client, () => now);
    const req = { namespace: 'default', name: 'tick' };
    expect(await r.reconcile(ctx, req)).toEqual({ requeueAfterMs: 1_100 });
    expect((await client.list(JOB, { namespace: 'default' })).items).toEqual([]);

    now = firstDue + 2_000;
    expect(await r.reconcile(ctx, req)).toEqual({ requeueAfterMs: 300_000 - 2_000 + 100 });
    const jobs = (await client.list<KubeObject>(JOB, { namespace: 'default' })).items;
    expect(jobs.map((j) => j.metadata.name)).toEqual([`tick-${firstDue / 60_000}`]);
    expect(jobs[0]?.metadata.labels).toMatchObject({ from: 'tick' });
    expect(jobs[0]?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'CronJob', name: 'tick', controller: true });
    const status = (await client.get<KubeObject>(CRONJOB, req)).status as Record<string, unknown>;
    expect(status.lastScheduleTime).toBe(new Date(firstDue).toISOString().replace('.000Z', 'Z'));
    expect((status.active as { name: string }[]).map((a) => a.name)).toEqual([jobs[0]?.metadata.name]);

    // The first Job still runs: Forbid skips the next run.
    now = firstDue + 300_000 + 1_000;
    await r.reconcile(ctx, req);
    expect((await client.list(JOB, { namespace: 'default' })).items).toHaveLength(1);
  });
});
