// The controller-runtime layer against the embedded API server over real HTTP: the shared manager suite
// (support/manager-suite.ts, also run against a real kube-apiserver by manager-envtest.test.ts). Lives under
// test/ because server/runtime may not import server/cluster (test/architecture).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe } from 'vitest';
import { SandboxServer } from '../../server/cluster/sandbox';
import { defineManagerSuite } from './support/manager-suite';

describe('manager against the sandbox', () => {
  let sandbox: SandboxServer | undefined;
  let dir: string | undefined;

  beforeAll(async () => {
    sandbox = new SandboxServer({ port: 0 });
    await sandbox.start();
    dir = mkdtempSync(join(tmpdir(), 'mgr-sandbox-'));
    await sandbox.writeKubeconfig(join(dir, 'kubeconfig'));
  }, 30_000);

  // Registered before the suite's hooks: vitest runs after-hooks as a stack, so this one runs after the
  // manager has stopped.
  afterAll(async () => {
    await sandbox?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  defineManagerSuite(() => ({ kubeconfig: join(dir as string, 'kubeconfig') }));
});
