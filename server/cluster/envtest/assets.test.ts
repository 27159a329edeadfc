import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultAssetsRoot, EnvtestAssetsError, findAssets, newestCachedAssetsDir } from './assets';

const platform = `${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
let root: string;

function fakeBinary(dir: string, name: string, executable = true): string {
  mkdirSync(dir, { recursive: true });
  const p = join(dir, name);
  writeFileSync(p, '#!/bin/sh\n');
  chmodSync(p, executable ? 0o755 : 0o644);
  return p;
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'envtest-assets-test-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('defaultAssetsRoot', () => {
  it('honours CONTROLLER_SCOPE_ENVTEST_CACHE, then XDG_CACHE_HOME, then HOME/.cache', () => {
    expect(defaultAssetsRoot({ CONTROLLER_SCOPE_ENVTEST_CACHE: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/c');
    expect(defaultAssetsRoot({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/x/controller-scope/envtest');
    expect(defaultAssetsRoot({ HOME: '/h' })).toBe('/h/.cache/controller-scope/envtest');
  });
});

describe('findAssets', () => {
  it('uses KUBEBUILDER_ASSETS/<name>', () => {
    const dir = join(root, 'kb');
    fakeBinary(dir, 'kube-apiserver');
    fakeBinary(dir, 'etcd');
    fakeBinary(dir, 'kubectl');
    fakeBinary(dir, 'kube-controller-manager');
    const a = findAssets({ env: { KUBEBUILDER_ASSETS: dir, HOME: root } });
    expect(a).toMatchObject({
      kubeApiserver: join(dir, 'kube-apiserver'),
      etcd: join(dir, 'etcd'),
      kubectl: join(dir, 'kubectl'),
      kubeControllerManager: join(dir, 'kube-controller-manager'),
    });
    expect(a.source).toContain('KUBEBUILDER_ASSETS');
  });

  it('lets TEST_ASSET_* override single binaries, as envtest does', () => {
    const dir = join(root, 'kb');
    fakeBinary(dir, 'kube-apiserver');
    fakeBinary(dir, 'etcd');
    const other = fakeBinary(join(root, 'elsewhere'), 'my-etcd');
    const a = findAssets({ env: { KUBEBUILDER_ASSETS: dir, TEST_ASSET_ETCD: other, HOME: root } });
    expect(a.etcd).toBe(other);
    expect(a.kubeApiserver).toBe(join(dir, 'kube-apiserver'));
    expect(a.kubectl).toBeUndefined();
    expect(a.kubeControllerManager).toBeUndefined();
  });

  it('prefers KUBEBUILDER_ASSETS over the assetsDir option', () => {
    const kb = join(root, 'kb');
    const opt = join(root, 'opt');
    for (const d of [kb, opt]) {
      fakeBinary(d, 'kube-apiserver');
      fakeBinary(d, 'etcd');
    }
    expect(findAssets({ assetsDir: opt, env: { KUBEBUILDER_ASSETS: kb, HOME: root } }).etcd).toBe(join(kb, 'etcd'));
    expect(findAssets({ assetsDir: opt, env: { HOME: root } }).etcd).toBe(join(opt, 'etcd'));
  });

  it('falls back to the newest complete version in the setup-envtest cache', () => {
    const cache = join(root, 'cache');
    const k8s = join(cache, 'k8s');
    for (const v of ['1.9.0', '1.36.3', '1.37.2']) fakeBinary(join(k8s, `${v}-${platform}`), 'kube-apiserver');
    for (const v of ['1.9.0', '1.36.3']) fakeBinary(join(k8s, `${v}-${platform}`), 'etcd');
    fakeBinary(join(k8s, `1.99.0-other-arch`), 'kube-apiserver');
    const env = { CONTROLLER_SCOPE_ENVTEST_CACHE: cache };
    // 1.37.2 lacks etcd and 1.9.0 sorts below 1.36.3 numerically.
    expect(newestCachedAssetsDir(env)).toBe(join(k8s, `1.36.3-${platform}`));
    expect(findAssets({ env }).kubeApiserver).toBe(join(k8s, `1.36.3-${platform}`, 'kube-apiserver'));
  });

  it('throws a clear error naming the paths tried and the setup script', () => {
    const dir = join(root, 'kb');
    fakeBinary(dir, 'kube-apiserver');
    fakeBinary(dir, 'etcd', false);
    let err: unknown;
    try {
      findAssets({ env: { KUBEBUILDER_ASSETS: dir } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EnvtestAssetsError);
    const msg = (err as Error).message;
    expect(msg).toContain(join(dir, 'etcd'));
    expect(msg).not.toContain('kube-apiserver (looked');
    expect(msg).toContain('scripts/setup-envtest.sh');
  });

  it('says what a half-built cache holds instead of calling it empty (a build may still be running)', () => {
    const cache = join(root, 'cache');
    fakeBinary(join(cache, 'k8s', `1.36.3-${platform}`), 'etcd');
    expect(() => findAssets({ env: { CONTROLLER_SCOPE_ENVTEST_CACHE: cache } })).toThrow(
      new RegExp(
        `1\\.36\\.3-${platform} has etcd, lacks kube-apiserver — if scripts/setup-envtest\\.sh is still building`,
      ),
    );
  });

  it('reports an empty cache when nothing is configured', () => {
    expect(() => findAssets({ env: { CONTROLLER_SCOPE_ENVTEST_CACHE: join(root, 'none') } })).toThrow(
      /kube-apiserver \(looked at cache .*none\/k8s \(empty\)\).*setup-envtest/,
    );
  });
});
