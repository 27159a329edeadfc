// kubectl driven against the sandbox through a written kubeconfig: the envtest assets' kubectl (the
// apiserver's own version) when it was built, else /usr/bin/kubectl (1.32); CONTROLLER_SCOPE_KUBECTL picks
// another binary. Skipped without either unless CONTROLLER_SCOPE_REQUIRE_KUBECTL=1.
import { execFile, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvtestAssetsError, findAssets } from '../envtest';
import { SandboxServer } from './server';

const run = promisify(execFile);

function findKubectl(): string | undefined {
  if (process.env.CONTROLLER_SCOPE_KUBECTL) return process.env.CONTROLLER_SCOPE_KUBECTL;
  try {
    const fromAssets = findAssets().kubectl;
    if (fromAssets) return fromAssets;
  } catch (err) {
    if (!(err instanceof EnvtestAssetsError)) throw err;
  }
  try {
    accessSync('/usr/bin/kubectl', constants.X_OK);
    return '/usr/bin/kubectl';
  } catch {
    return undefined;
  }
}

const FOUND_KUBECTL = findKubectl();
const REQUIRE_KUBECTL = process.env.CONTROLLER_SCOPE_REQUIRE_KUBECTL === '1';
const KUBECTL = FOUND_KUBECTL ?? 'kubectl';
let server: SandboxServer;
let dir: string;
let kubeconfig: string;

async function kubectl(...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(
      KUBECTL,
      ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args],
      { timeout: 30_000 },
    );
    return { stdout, stderr, code: 0 };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; code?: number };
    return { stdout: err.stdout ?? '', stderr: err.stderr ?? '', code: err.code ?? 1 };
  }
}

async function manifest(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

beforeAll(async () => {
  server = new SandboxServer({});
  await server.start();
  dir = await mkdtemp(join(tmpdir(), 'sandbox-kubectl-'));
  kubeconfig = join(dir, 'kubeconfig');
  await server.writeKubeconfig(kubeconfig);
});

afterAll(async () => {
  await server.stop();
  await rm(dir, { recursive: true, force: true });
});

if (!FOUND_KUBECTL && REQUIRE_KUBECTL) {
  it('needs a kubectl binary (CONTROLLER_SCOPE_REQUIRE_KUBECTL=1)', () => {
    throw new Error('no kubectl in the envtest assets (scripts/setup-envtest.sh) nor at /usr/bin/kubectl');
  });
}

describe.skipIf(!FOUND_KUBECTL)(`kubectl (${KUBECTL}) against the sandbox`, () => {
  it('version', async () => {
    const r = await kubectl('version');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Server Version: v1\.32\.0/);
  });

  it('api-resources', async () => {
    const r = await kubectl('api-resources');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
    expect(r.stdout).toMatch(/^leases\s+coordination\.k8s\.io\/v1\s+true\s+Lease$/m);
    expect(r.stdout).toMatch(/^namespaces\s+ns\s+v1\s+false\s+Namespace$/m);
  });

  it('create -f, then AlreadyExists', async () => {
    const f = await manifest(
      'cm.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: created\ndata:\n  a: "1"\n',
    );
    const r = await kubectl('create', '-f', f);
    expect([r.code, r.stdout.trim()]).toEqual([0, 'configmap/created created']);
    const again = await kubectl('create', '-f', f);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('Error from server (AlreadyExists): error when creating');
    expect(again.stderr).toContain('configmaps "created" already exists');
  });

  it('generator commands send protobuf bodies and work', async () => {
    expect((await kubectl('create', 'namespace', 'gen')).stdout.trim()).toBe('namespace/gen created');
    expect((await kubectl('-n', 'gen', 'create', 'configmap', 'c', '--from-literal=a=1')).stdout.trim()).toBe(
      'configmap/c created',
    );
    expect((await kubectl('-n', 'gen', 'create', 'secret', 'generic', 's', '--from-literal=p=x')).stdout.trim()).toBe(
      'secret/s created',
    );
    const d = await kubectl('-n', 'gen', 'create', 'deployment', 'd', '--image=nginx:1', '--replicas=2');
    expect(d.stdout.trim()).toBe('deployment.apps/d created');
    expect(server.store.get({ apiVersion: 'v1', kind: 'ConfigMap' }, 'c', 'gen')?.data).toEqual({ a: '1' });
    expect(server.store.get({ apiVersion: 'apps/v1', kind: 'Deployment' }, 'd', 'gen')?.spec).toMatchObject({
      replicas: 2,
      strategy: { type: 'RollingUpdate' },
    });
    expect((await kubectl('delete', 'namespace', 'gen')).stdout.trim()).toBe('namespace "gen" deleted');
    expect(server.store.get({ apiVersion: 'v1', kind: 'Namespace' }, 'gen')).toBeUndefined();
  });

  it('create -f refuses unknown fields (kubectl asks for Strict validation)', async () => {
    const f = await manifest(
      'typo.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typo\ndatta:\n  a: "1"\n',
    );
    const r = await kubectl('create', '-f', f);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('strict decoding error: unknown field "datta"');
  });

  it('get -A prints objects of every namespace', async () => {
    await server.store.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'sys', namespace: 'kube-system' },
    });
    const r = await kubectl('get', 'configmaps', '-A');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^NAMESPACE\s+NAME\s+DATA\s+AGE$/m);
    expect(r.stdout).toMatch(/^default\s+created\s+1\s+\S+$/m);
    expect(r.stdout).toMatch(/^kube-system\s+sys\s+0\s+\S+$/m);
    const ns = await kubectl('get', 'ns');
    expect(ns.stdout).toMatch(/^kube-node-lease\s+Active/m);
  });

  it('apply -f twice: created, then configured with the change', async () => {
    const f = await manifest(
      'apply.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  a: "1"\n',
    );
    expect((await kubectl('apply', '-f', f)).stdout.trim()).toBe('configmap/applied created');
    expect((await kubectl('apply', '-f', f)).stdout.trim()).toBe('configmap/applied unchanged');
    const f2 = await manifest(
      'apply.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  b: "2"\n',
    );
    const r = await kubectl('apply', '-f', f2);
    expect([r.code, r.stdout.trim(), r.stderr]).toEqual([0, 'configmap/applied configured', '']);
    expect(server.store.get({ apiVersion: 'v1', kind: 'ConfigMap' }, 'applied', 'default')?.data).toEqual({ b: '2' });
  });

  it('apply of a Deployment uses strategic merge for lists keyed by name', async () => {
    const deploy = (image: string) =>
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        '  name: web',
        'spec:',
        '  selector: {matchLabels: {app: web}}',
        '  template:',
        '    metadata: {labels: {app: web}}',
        '    spec:',
        `      containers: [{name: app, image: ${image}}]`,
        '',
      ].join('\n');
    expect((await kubectl('apply', '-f', await manifest('d.yaml', deploy('nginx:1')))).stdout.trim()).toBe(
      'deployment.apps/web created',
    );
    const r = await kubectl('apply', '-f', await manifest('d.yaml', deploy('nginx:2')));
    expect([r.code, r.stdout.trim()]).toEqual([0, 'deployment.apps/web configured']);
    const d = server.store.get({ apiVersion: 'apps/v1', kind: 'Deployment' }, 'web', 'default');
    expect(d?.metadata.generation).toBe(2);
    expect(JSON.stringify(d?.spec)).toContain('nginx:2');
  });

  it('patch --type merge, and a repeat reports no change', async () => {
    const r = await kubectl('patch', 'configmap', 'created', '--type', 'merge', '-p', '{"data":{"b":"2"}}');
    expect([r.code, r.stdout.trim()]).toEqual([0, 'configmap/created patched']);
    const again = await kubectl('patch', 'configmap', 'created', '--type', 'merge', '-p', '{"data":{"b":"2"}}');
    expect(again.stdout.trim()).toBe('configmap/created patched (no change)');
  });

  it('get -w -o json streams the list and then changes', async () => {
    const child = spawn(KUBECTL, [
      '--kubeconfig',
      kubeconfig,
      '--cache-dir',
      join(dir, 'cache'),
      'get',
      'configmaps',
      '-w',
      '-o',
      'json',
    ]);
    let out = '';
    const seen = new Promise<void>((resolve) => {
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('"watched-later"')) resolve();
      });
    });
    // Create once the initial list has been printed, so the object arrives through the watch.
    await new Promise<void>((resolve) => {
      const check = (): void => (out.includes('"created"') ? resolve() : void setTimeout(check, 20));
      check();
    });
    await server.store.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'watched-later', namespace: 'default' },
    });
    await seen;
    child.kill();
    expect(out).toContain('"name": "created"');
    expect(out).toContain('"name": "watched-later"');
  });

  it('delete waits for the object to go', async () => {
    const r = await kubectl('delete', 'configmap', 'created');
    expect(r.code).toBe(0);
    // kubectl 1.32 prints `configmap "x" deleted`; newer ones add ` from <ns> namespace`.
    expect(r.stdout.trim()).toMatch(/^configmap "created" deleted( from default namespace)?$/);
    const gone = await kubectl('get', 'configmap', 'created');
    expect(gone.stderr.trim()).toBe('Error from server (NotFound): configmaps "created" not found');
  });

  it('serves a CRD end to end', async () => {
    const crd = await manifest(
      'crd.yaml',
      [
        'apiVersion: apiextensions.k8s.io/v1',
        'kind: CustomResourceDefinition',
        'metadata: {name: widgets.example.com}',
        'spec:',
        '  group: example.com',
        '  scope: Namespaced',
        '  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd]}',
        '  versions:',
        '  - name: v1',
        '    served: true',
        '    storage: true',
        '    additionalPrinterColumns: [{name: Size, type: integer, jsonPath: .spec.size}]',
        '    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, x-kubernetes-preserve-unknown-fields: true}}}}',
        '',
      ].join('\n'),
    );
    expect((await kubectl('apply', '-f', crd)).stdout.trim()).toBe(
      'customresourcedefinition.apiextensions.k8s.io/widgets.example.com created',
    );
    expect((await kubectl('wait', '--for', 'condition=Established', 'crd/widgets.example.com')).code).toBe(0);
    const w = await manifest(
      'w.yaml',
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {size: 3}\n',
    );
    expect((await kubectl('apply', '-f', w)).stdout.trim()).toBe('widget.example.com/w1 created');
    const get = await kubectl('get', 'wd');
    expect(get.stdout).toMatch(/^NAME\s+SIZE\s+AGE\nw1\s+3\s+\S+/m);
    const w2 = await manifest(
      'w.yaml',
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {size: 4}\n',
    );
    expect((await kubectl('apply', '-f', w2)).stdout.trim()).toBe('widget.example.com/w1 configured');
    expect((await kubectl('delete', 'crd', 'widgets.example.com')).code).toBe(0);
  });
});
