// A real client-go (v0.36) program against the sandbox: typed writes with JSON and protobuf bodies, conflicts,
// a WatchList-started informer, Lease renewals, the dynamic client, a CRD through the apiextensions clientset
// and the built-in kinds an operator writes. Skipped when Go is absent.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxServer } from './server';

const run = promisify(execFile);
const GO = '/usr/local/go/bin/go';
const here = dirname(fileURLToPath(import.meta.url));
let server: SandboxServer;
let dir: string;
let binary: string;

describe.skipIf(!existsSync(GO))('client-go against the sandbox', () => {
  // A cold Go build of a client-go program takes minutes on a loaded 2-core machine (over 170 s at load 14).
  beforeAll(async () => {
    server = new SandboxServer({});
    await server.start();
    dir = await mkdtemp(join(tmpdir(), 'sandbox-go-'));
    binary = join(dir, 'go-peer');
    await server.writeKubeconfig(join(dir, 'kubeconfig'));
    // The peer's dependencies are pinned by its go.sum; they come from the module cache, or from the module
    // proxy on a machine that has not fetched them yet.
    await run(GO, ['build', '-o', binary, '.'], {
      cwd: join(here, 'testdata/go-client'),
      env: { ...process.env, GOFLAGS: '-mod=mod', GOSUMDB: 'off' },
      timeout: 590_000,
    });
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each(['json', 'protobuf'])('runs every step of the peer program with %s bodies', async (mode) => {
    const { stdout } = await run(binary, [join(dir, 'kubeconfig'), mode], { timeout: 50_000 });
    const lines = stdout.trim().split('\n');
    expect(lines.filter((l) => !l.startsWith('ok '))).toEqual([]);
    expect(lines).toContain('ok informer sync');
    expect(lines).toContain('ok lease renew');
    // A CRD through the apiextensions clientset (protobuf body with schema wrappers), built-in kinds
    // beyond the core ones, and events.k8s.io selectors.
    for (const step of ['crd schema', 'statefulset create', 'job defaults', 'podtemplate create', 'secret empty key'])
      expect(lines).toContain(`ok ${step}`);
    expect(lines).toContain('ok kubernetes service');
    expect(lines).toContain('ok discovery admissionregistration');
    expect(lines).toContain('ok event list by selectors');
    expect(lines[lines.length - 1]).toBe('ok delete');
    if (mode === 'protobuf') {
      const lease = server.store.get(
        { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' },
        'go-lease-protobuf',
        'default',
      );
      expect((lease?.spec as { renewTime?: string }).renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    }
  });
});
