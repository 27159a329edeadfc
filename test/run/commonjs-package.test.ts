// `run FILE` in a project made by `npm init -y`: its package.json says "type": "commonjs", and a user's
// TypeScript written with import/export (and `import type`) must still load, sharing the dashboard's runtime.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startCli, type CliProcess } from './support/cli-process';

const CONTROLLER = `import { newControllerManagedBy, type Manager } from 'controller-scope';
import type { Request, Result } from 'controller-scope';

const ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap' } as const;

export default async function setup(mgr: Manager): Promise<void> {
  await newControllerManagedBy(mgr)
    .named('commonjs-configmaps')
    .for(ConfigMap)
    .complete({ async reconcile(_ctx: unknown, _req: Request): Promise<Result> { return {}; } });
}
`;

describe('run in a CommonJS package (npm init -y)', () => {
  let dir: string;
  let cli: CliProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'controller-scope-cjs-'));
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'my-operator', version: '1.0.0', type: 'commonjs' }),
    );
    // As `npm install` of this checkout would: the package under node_modules, a link to the real files.
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(REPO_ROOT, join(dir, 'node_modules', 'controller-scope'), 'dir');
    writeFileSync(join(dir, 'controller.ts'), CONTROLLER);
    cli = await startCli(['run', 'controller.ts', '--port', '0'], { cwd: dir });
  }, 90_000);

  afterAll(async () => {
    await cli?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("loads the user's ES-module TypeScript and runs its controller on the dashboard's runtime", async () => {
    const v = await cli.waitForView(
      'commonjs-configmaps reconciled',
      (v) => (v.controllers['commonjs-configmaps']?.totalReconciles ?? 0) > 0,
      60_000,
    );
    expect(v.modules).toMatchObject([{ file: 'controller.ts', phase: 'loaded', controllers: ['commonjs-configmaps'] }]);
  });
});
