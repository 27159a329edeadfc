// The conformance suite against the embedded sandbox API server (always runs).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxServer } from '../../server/cluster/sandbox';
import { defineConformance } from './conformance';
import { DIFFERENCES } from './support/differences';
import type { ConformanceTarget } from './support/target';
import { connectTarget } from './support/targets';

describe('conformance: sandbox', () => {
  let server: SandboxServer;
  let dir: string;
  let target: ConformanceTarget | undefined;

  beforeAll(async () => {
    server = new SandboxServer({ port: 0 });
    await server.start();
    dir = await mkdtemp(join(tmpdir(), 'conformance-sandbox-'));
    const kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
    target = connectTarget('sandbox', kubeconfig, () => Promise.resolve(String(server.faults.compactNow())));
  });

  afterAll(async () => {
    target?.http.close();
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  defineConformance('sandbox', () => {
    if (!target) throw new Error('sandbox target not started');
    return target;
  });

  it('README lists every case that runs on one target only', async () => {
    const readme = await readFile(new URL('./README.md', import.meta.url), 'utf-8');
    for (const d of DIFFERENCES) expect(readme, d.title).toContain(d.title);
  });
});
