// Scenarios of controller-runtime pkg/client/config/config_test.go (loading precedence) plus the error
// messages a user sees when no usable configuration exists.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, flagValue, getConfig, getConfigOrDie, RestConfig } from './config';
import { tmpDir, writeKubeconfig } from '../testing/test-server';

let dir: string;
let home: string;

beforeEach(() => {
  dir = tmpDir('config-test-');
  home = path.join(dir, 'home');
  fs.mkdirSync(home);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, server: string, context = name, extraContexts: string[] = []): string {
  return writeKubeconfig(path.join(dir, `${name}.yaml`), { server: `https://${server}:6443`, context, extraContexts });
}

function homeConfig(server: string): void {
  writeKubeconfig(path.join(home, '.kube', 'config'), { server: `https://${server}:6443`, context: 'home' });
}

/** A fake service-account root and the env that makes it look in-cluster. */
function inCluster(): { inClusterRoot: string; env: Record<string, string> } {
  const root = path.join(dir, 'sa');
  const sa = path.join(root, 'var/run/secrets/kubernetes.io/serviceaccount');
  fs.mkdirSync(sa, { recursive: true });
  fs.writeFileSync(path.join(sa, 'token'), 'sa-token');
  fs.writeFileSync(path.join(sa, 'namespace'), 'kube-system');
  return { inClusterRoot: root, env: { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBERNETES_SERVICE_PORT: '443' } };
}

function expectConfigError(fn: () => unknown, reason: string): ConfigError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).reason).toBe(reason);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('getConfig precedence', () => {
  it('fails when no config exists anywhere, naming the four places it looked', () => {
    const err = expectConfigError(() => getConfig({ env: {}, homeDir: home }), 'NoConfig');
    expect(err.message).toContain('--kubeconfig');
    expect(err.message).toContain('KUBECONFIG');
    expect(err.message).toContain('in-cluster');
    expect(err.message).toContain(path.join(home, '.kube', 'config'));
  });

  it('uses the --kubeconfig flag', () => {
    const f = file('flag', 'flag.example');
    const c = getConfig({ argv: ['node', 'main', '--kubeconfig', f], env: {}, homeDir: home });
    expect(c.host).toBe('https://flag.example:6443');
    expect(c.source).toContain(f);
  });

  it('accepts --kubeconfig=path and an explicit kubeconfig option', () => {
    const f = file('flag', 'flag.example');
    expect(getConfig({ argv: [`--kubeconfig=${f}`], env: {}, homeDir: home }).host).toBe('https://flag.example:6443');
    expect(getConfig({ kubeconfig: f, env: {}, homeDir: home }).host).toBe('https://flag.example:6443');
  });

  it('uses the KUBECONFIG env var', () => {
    const f = file('env', 'env.example');
    expect(getConfig({ env: { KUBECONFIG: f }, homeDir: home }).host).toBe('https://env.example:6443');
  });

  it('uses $HOME/.kube/config', () => {
    homeConfig('home.example');
    const c = getConfig({ env: {}, homeDir: home });
    expect(c.host).toBe('https://home.example:6443');
    expect(c.namespace).toBe('ns-home');
  });

  it('flag beats env, env beats home', () => {
    homeConfig('home.example');
    const envFile = file('env', 'env.example');
    const flagFile = file('flag', 'flag.example');
    expect(getConfig({ kubeconfig: flagFile, env: { KUBECONFIG: envFile }, homeDir: home }).host).toBe(
      'https://flag.example:6443',
    );
    expect(getConfig({ env: { KUBECONFIG: envFile }, homeDir: home }).host).toBe('https://env.example:6443');
  });

  it('in-cluster beats $HOME but KUBECONFIG beats in-cluster', () => {
    homeConfig('home.example');
    const ic = inCluster();
    const c = getConfig({ env: ic.env, homeDir: home, inClusterRoot: ic.inClusterRoot });
    expect(c.host).toBe('https://10.0.0.1:443');
    expect(c.source).toBe('in-cluster service account');
    expect(c.namespace).toBe('kube-system');
    const envFile = file('env', 'env.example');
    const c2 = getConfig({ env: { ...ic.env, KUBECONFIG: envFile }, homeDir: home, inClusterRoot: ic.inClusterRoot });
    expect(c2.host).toBe('https://env.example:6443');
  });

  it('context override picks another context', () => {
    const f = file('multi', 'multi.example', 'a', ['b']);
    const c = getConfig({ kubeconfig: f, context: 'b', env: {}, homeDir: home });
    expect(c.contextName).toBe('b');
    expect(c.namespace).toBe('ns-b');
    expect(getConfig({ kubeconfig: f, argv: ['--context=b'], env: {}, homeDir: home }).contextName).toBe('b');
  });
});

describe('KUBECONFIG merging', () => {
  it('a context present only in the second file works', () => {
    const one = file('one', 'one.example');
    const two = file('two', 'two.example');
    const c = getConfig({ env: { KUBECONFIG: `${one}:${two}` }, context: 'two', homeDir: home });
    expect(c.host).toBe('https://two.example:6443');
  });

  it('the first file wins current-context and duplicate names; missing files are skipped', () => {
    const one = file('one', 'one.example', 'shared');
    const two = writeKubeconfig(path.join(dir, 'two.yaml'), { server: 'https://two.example:6443', context: 'shared' });
    const c = getConfig({ env: { KUBECONFIG: `${path.join(dir, 'nope.yaml')}:${one}:${two}` }, homeDir: home });
    expect(c.contextName).toBe('shared');
    expect(c.host).toBe('https://one.example:6443');
  });

  it('with KUBECONFIG set the home file is not read, even when no listed file exists', () => {
    homeConfig('home.example');
    const missing = path.join(dir, 'nope.yaml');
    const err = expectConfigError(() => getConfig({ env: { KUBECONFIG: missing, HOME: home } }), 'NoConfig');
    expect(err.message).toContain(`${missing} (none of the listed files exists)`);
    expect(err.message).toContain('not read because KUBECONFIG is set');
  });
});

describe('getConfig errors', () => {
  it('names the missing context and lists those that exist', () => {
    const f = file('multi', 'multi.example', 'alpha', ['beta']);
    const err = expectConfigError(
      () => getConfig({ kubeconfig: f, context: 'gamma', env: {}, homeDir: home }),
      'ContextNotFound',
    );
    expect(err.message).toContain('context "gamma" does not exist');
    expect(err.message).toContain('"alpha", "beta"');
  });

  it('reports a malformed file with its path', () => {
    const f = path.join(dir, 'bad.yaml');
    fs.writeFileSync(f, 'clusters: [\n  - {name: x, cluster: {server: }\n');
    const err = expectConfigError(() => getConfig({ kubeconfig: f, env: {}, homeDir: home }), 'Malformed');
    expect(err.message).toContain(f);
    expect(err.message).toContain('not a valid kubeconfig');
  });

  it('reports a structurally invalid file (cluster without server)', () => {
    const f = path.join(dir, 'noserver.yaml');
    fs.writeFileSync(f, 'clusters:\n- name: c\n  cluster: {}\ncontexts: []\nusers: []\n');
    const err = expectConfigError(() => getConfig({ kubeconfig: f, env: {}, homeDir: home }), 'Malformed');
    expect(err.message).toContain('clusters[0].cluster.server is missing');
  });

  it('reports an empty file as malformed', () => {
    const f = path.join(dir, 'empty.yaml');
    fs.writeFileSync(f, '\n');
    expect(
      expectConfigError(() => getConfig({ kubeconfig: f, env: {}, homeDir: home }), 'Malformed').message,
    ).toContain('empty');
  });

  it('reports an unreadable --kubeconfig path', () => {
    const missing = path.join(dir, 'missing.yaml');
    const err = expectConfigError(() => getConfig({ kubeconfig: missing, env: {}, homeDir: home }), 'Unreadable');
    expect(err.message).toContain(missing);
    expect(err.message).toContain('no such file');
    expect(
      expectConfigError(() => getConfig({ kubeconfig: dir, env: {}, homeDir: home }), 'Unreadable').message,
    ).toContain('directory');
  });

  it('reports a file without current-context and no --context', () => {
    const f = path.join(dir, 'nocurrent.yaml');
    fs.writeFileSync(
      f,
      'clusters:\n- name: c\n  cluster: {server: "https://x:1"}\nusers:\n- name: u\n  user: {}\ncontexts:\n- name: only\n  context: {cluster: c, user: u}\n',
    );
    const err = expectConfigError(() => getConfig({ kubeconfig: f, env: {}, homeDir: home }), 'NoCurrentContext');
    expect(err.message).toContain('"only"');
  });

  it('reports a context that names an undefined cluster', () => {
    const f = path.join(dir, 'dangling.yaml');
    fs.writeFileSync(f, 'current-context: x\ncontexts:\n- name: x\n  context: {cluster: gone, user: u}\n');
    expect(expectConfigError(() => getConfig({ kubeconfig: f, env: {}, homeDir: home }), 'Invalid').message).toContain(
      'cluster "gone"',
    );
  });
});

describe('RestConfig', () => {
  it('QPS 0 means client-side rate limiting is disabled (-1)', () => {
    expect(RestConfig.forServer('http://127.0.0.1:1').qps).toBe(-1);
    expect(RestConfig.forServer('http://127.0.0.1:1', { qps: 0 }).qps).toBe(-1);
    expect(RestConfig.forServer('http://127.0.0.1:1', { qps: 20, burst: 30 })).toMatchObject({ qps: 20, burst: 30 });
  });

  it('forServer skips TLS verification only for plain http', () => {
    expect(RestConfig.forServer('http://127.0.0.1:1/').kubeConfig.getCurrentCluster()).toMatchObject({
      server: 'http://127.0.0.1:1',
      skipTLSVerify: true,
    });
    expect(RestConfig.forServer('https://h:1').kubeConfig.getCurrentCluster()?.skipTLSVerify).toBe(false);
  });

  it('flagValue reads both flag spellings', () => {
    expect(flagValue(['--context', 'a'], 'context')).toBe('a');
    expect(flagValue(['--context=b'], 'context')).toBe('b');
    expect(flagValue(['--contextual=b'], 'context')).toBeUndefined();
  });
});

describe('getConfigOrDie', () => {
  it('prints "unable to get kubeconfig" with the reason and exits 1', () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation(((code?: number) => {
      throw new Error(`exit ${code}`);
    }) as typeof process.exit);
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(() => getConfigOrDie({ env: {}, homeDir: home })).toThrow('exit 1');
      expect(String(write.mock.calls[0]?.[0])).toMatch(/^unable to get kubeconfig: no Kubernetes configuration found/);
    } finally {
      exit.mockRestore();
      write.mockRestore();
    }
  });
});
