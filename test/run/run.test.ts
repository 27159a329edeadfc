// `controller-scope run FILE…` end to end: the real CLI in a child process against the embedded sandbox,
// read over socket.io as the browser reads it.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModuleView, RuntimeView } from '../../shared/protocol/view';
import { REPO_ROOT, startCli, type CliProcess } from './support/cli-process';

const FIXTURES = resolve(import.meta.dirname, 'fixtures');
// Inside the repo, so a user file's `import … from 'controller-scope'` resolves as in a project that installed it.
const TMP_ROOT = resolve(import.meta.dirname, '.tmp');

const fixture = (name: string): string => join('test/run/fixtures', name);
const moduleOf = (v: RuntimeView, file: string): ModuleView | undefined => v.modules.find((m) => m.file === file);

function scratchDir(): string {
  mkdirSync(TMP_ROOT, { recursive: true });
  return mkdtempSync(join(TMP_ROOT, 'run-'));
}

describe('controller-scope run: every accepted export shape and every bad module', () => {
  let cli: CliProcess;
  let dir: string;
  let syntaxError: string;

  beforeAll(async () => {
    dir = scratchDir();
    // Kept as .txt in the repo so lint and the type check never see it.
    syntaxError = join(dir, 'syntax-error.ts');
    copyFileSync(join(FIXTURES, 'syntax-error.ts.txt'), syntaxError);
    cli = await startCli([
      'run',
      fixture('config-map-counter.ts'),
      fixture('named-setup.ts'),
      fixture('setup-with-manager.ts'),
      fixture('reconciler-object.ts'),
      fixture('no-setup.ts'),
      fixture('setup-throws.ts'),
      syntaxError,
      '--kubeconfig-out',
      join(dir, 'sandbox.kubeconfig'),
      '--port',
      '0',
    ]);
  }, 90_000);

  afterAll(async () => {
    await cli?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['config-map-counter.ts', 'configmap-counter'],
    ['named-setup.ts', 'named-setup'],
    ['setup-with-manager.ts', 'setup-with-manager'],
    ['reconciler-object.ts', 'reconciler-object'],
  ])('%s is loaded and its controller %s runs', async (file, controller) => {
    const v = await cli.waitForView(`${file} loaded`, (v) => moduleOf(v, fixture(file))?.phase === 'loaded');
    expect(moduleOf(v, fixture(file))).toMatchObject({ generation: 1, controllers: [controller] });
    await cli.waitForView(`${controller} reconciled`, (v) => (v.controllers[controller]?.totalReconciles ?? 0) > 0);
  });

  it("shows the user's controller's reconciles and key states, and no example controllers", async () => {
    const v = await cli.waitForView('configmap-counter keys', (v) => {
      const c = v.controllers['configmap-counter'];
      return c !== undefined && Object.keys(c.keys).length > 0 && (c.reconciles.success ?? 0) > 0;
    });
    for (const demo of ['pod-counter', 'replicaset-owner', 'flaky', 'hot-loop'])
      expect(v.controllers[demo]).toBeUndefined();
    expect(cli.output()).not.toMatch(/example controllers:/);
    // No demo churn under run: the user's keys are not drowned by demo/churn-* ConfigMaps.
    expect(cli.output()).toContain('demo churn: off');
    expect(Object.keys(v.controllers['configmap-counter']?.keys ?? {}).filter((k) => k.includes('churn-'))).toEqual([]);
  });

  it('writes the sandbox kubeconfig where --kubeconfig-out says, for the user alone, and prints the export line', () => {
    const file = join(dir, 'sandbox.kubeconfig');
    expect(cli.output()).toContain(`export KUBECONFIG=${file}`);
    expect(readFileSync(file, 'utf8')).toContain('server: http://127.0.0.1:');
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a module without a setup function: what it exports, and what was expected', async () => {
    const v = await cli.waitForView('no-setup failed', (v) => moduleOf(v, fixture('no-setup.ts'))?.phase === 'failed');
    const m = moduleOf(v, fixture('no-setup.ts'));
    expect(m?.error?.message).toContain('has no setup function: it exports answer (a number), helper (a function)');
    expect(m?.error?.expected).toMatch(/export default async function setup\(mgr: Manager\).*setup.*setupWithManager/);
    expect(cli.output()).toMatch(/no-setup\.ts has no setup function[^\n]*\n {2}expected: a setup function/);
  });

  it('a setup that throws: the message, the file and the line', async () => {
    const v = await cli.waitForView(
      'setup-throws failed',
      (v) => moduleOf(v, fixture('setup-throws.ts'))?.phase === 'failed',
    );
    const m = moduleOf(v, fixture('setup-throws.ts'));
    expect(m?.error?.message).toBe(
      `setup in ${fixture('setup-throws.ts')} threw: no API group for widgets.example.com`,
    );
    expect(m?.error?.at).toMatchObject({ file: resolve(REPO_ROOT, fixture('setup-throws.ts')), line: 6 });
    expect(cli.output()).toContain(`(${fixture('setup-throws.ts')}:6)`);
  });

  it('a module that does not compile: the file and the line of the error', async () => {
    const v = await cli.waitForView('syntax-error failed', (v) => moduleOf(v, syntaxError)?.phase === 'failed');
    const m = moduleOf(v, syntaxError);
    expect(m?.error?.message).toMatch(/failed to load/);
    expect(m?.error?.at).toMatchObject({ file: syntaxError, line: 3 });
  });

  it('failures are notable errors, and the dashboard keeps serving', async () => {
    const v = await cli.waitForView(
      'notable module errors',
      (v) => v.notable.filter((n) => n.kind === 'module.lifecycle' && n.level === 'error').length >= 3,
    );
    expect(v.notable.some((n) => n.text.includes('setup-throws.ts:6'))).toBe(true);
    const res = await fetch(`${cli.url}api/view`);
    expect(res.status).toBe(200);
  });
});

describe('controller-scope run --watch', () => {
  let cli: CliProcess;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = scratchDir();
    file = join(dir, 'controller.ts');
    copyFileSync(join(FIXTURES, 'config-map-counter.ts'), file);
    writeFileSync(join(dir, 'settings.ts'), "export const VERSION = 'before my fix';\n");
    // The controller imports a local file: editing that file must reload the controller too.
    writeFileSync(
      file,
      `import { VERSION } from './settings';\n` +
        `export { default } from '../../fixtures/config-map-counter';\n` +
        `export const version = VERSION;\n`,
    );
    cli = await startCli(['run', file, '--watch', '--port', '0']);
  }, 90_000);

  afterAll(async () => {
    await cli?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reloads after an edit to an imported file, keeping the history; a broken edit keeps the last good one running', async () => {
    const first = await cli.waitForView('generation 1 reconciling', (v) => {
      return moduleOf(v, file)?.phase === 'loaded' && (v.controllers['configmap-counter']?.totalReconciles ?? 0) > 0;
    });
    const seqBefore = first.lastSeq;
    const reconcilesBefore = first.controllers['configmap-counter']?.totalReconciles ?? 0;

    writeFileSync(join(dir, 'settings.ts'), "export const VERSION = 'after my fix';\n");
    const second = await cli.waitForView('generation 2 reconciling', (v) => {
      const m = moduleOf(v, file);
      return (
        m?.phase === 'loaded' &&
        m.generation === 2 &&
        (v.controllers['configmap-counter']?.totalReconciles ?? 0) > reconcilesBefore
      );
    });
    const m = moduleOf(second, file) as ModuleView;
    expect(m.reloads).toHaveLength(1);
    expect(m.reloads[0]?.seq).toBeGreaterThan(seqBefore);
    expect(m.running).toBe(2);
    expect(second.lastSeq).toBeGreaterThan(seqBefore);
    // The restart is marked: a notable line at the seq the reload began.
    expect(second.notable.some((n) => n.seq === m.reloads[0]?.seq && /reloading after a change/.test(n.text))).toBe(
      true,
    );

    writeFileSync(join(dir, 'settings.ts'), 'export const VERSION = ;\n');
    const broken = await cli.waitForView('generation 3 failed', (v) => moduleOf(v, file)?.generation === 3);
    expect(moduleOf(broken, file)).toMatchObject({
      phase: 'failed',
      error: { at: { file: join(dir, 'settings.ts'), line: 1 } },
    });
    expect(moduleOf(broken, file)?.running).toBe(2);
    await cli.waitForOutput(/generation 2 keeps running/);

    writeFileSync(join(dir, 'settings.ts'), "export const VERSION = 'fixed again';\n");
    await cli.waitForView(
      'generation 4 loaded',
      (v) => moduleOf(v, file)?.generation === 4 && moduleOf(v, file)?.phase === 'loaded',
    );
  }, 90_000);
});
