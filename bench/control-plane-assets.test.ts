import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureControlPlaneAssets } from './control-plane-assets';

const KEYS = ['KUBEBUILDER_ASSETS', 'CONTROLLER_SCOPE_ENVTEST_CACHE', 'TEST_ASSET_KUBE_APISERVER', 'TEST_ASSET_ETCD'];

describe('ensureControlPlaneAssets', () => {
  let root: string;
  let saved: Record<string, string | undefined>;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'bench-assets-'));
    saved = Object.fromEntries(KEYS.map((k) => [k, process.env[k]]));
    for (const k of KEYS) delete process.env[k];
    process.env['CONTROLLER_SCOPE_ENVTEST_CACHE'] = root;
  });
  afterEach(() => {
    for (const k of KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('finds the binaries in the cache setup-envtest fills and exports the directory for the parts', async () => {
    const dir = join(root, 'k8s', `1.36.3-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`);
    mkdirSync(dir, { recursive: true });
    for (const b of ['kube-apiserver', 'etcd']) {
      writeFileSync(join(dir, b), '#!/bin/sh\n');
      chmodSync(join(dir, b), 0o755);
    }
    const logs: string[] = [];
    await expect(ensureControlPlaneAssets(false, (m) => logs.push(m))).resolves.toEqual({ dir });
    expect(process.env['KUBEBUILDER_ASSETS']).toBe(dir);
    expect(logs).toEqual([]);
  });

  it('with --no-envtest and nothing built, says the rows were not run and why, without building', async () => {
    const logs: string[] = [];
    const r = await ensureControlPlaneAssets(false, (m) => logs.push(m));
    expect(r).toEqual({
      why: expect.stringMatching(/^kube-apiserver rows not run \(--no-envtest\): envtest binaries not found/),
    });
    expect(process.env['KUBEBUILDER_ASSETS']).toBeUndefined();
    expect(logs).toEqual([]);
  });
});
