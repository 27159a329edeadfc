// The package as a user gets it: `npm pack`, installed into an empty project that has only the tarball, then
// (1) `npx controller-scope run controller.ts` with a controller written in that project, and (2) the seed's
// PodCounter main() with the one added line `await serveDashboard(mgr, …)`, both read over socket.io as the
// browser reads them. Proves the exports, the types' entry points, the bin, tsx and the shipped web app.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStandaloneSandbox } from '../../server/cluster/sandbox';
import { REPO_ROOT, startCli, startNode, type CliProcess } from '../run/support/cli-process';

const npm = (args: string[], cwd: string): string =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });

const CONTROLLER = `import { newControllerManagedBy, type Manager, type ReconcileContext, type Request, type Result } from 'controller-scope';

const ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap' } as const;

export default async function setup(mgr: Manager): Promise<void> {
  const client = mgr.getClient();
  await newControllerManagedBy(mgr)
    .named('packed-configmaps')
    .for(ConfigMap)
    .complete({
      async reconcile(_ctx: ReconcileContext, req: Request): Promise<Result> {
        await client.get(ConfigMap, req);
        return { requeueAfterMs: 60_000 };
      },
    });
}
`;

// The README's main.ts, exactly as printed there (the block after its marker): the seed's PodCounter main()
// plus the one line that serves the dashboard. A snippet that fails as written fails here.
const README_MAIN_MARKER = '<!-- main.ts: test/pack/pack.test.ts runs this block as printed -->';
function readmeMain(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf(README_MAIN_MARKER);
  const open = readme.indexOf('```ts\n', at);
  const close = readme.indexOf('\n```', open + 6);
  if (at < 0 || open < 0 || close < 0) throw new Error(`README.md: no \`\`\`ts block after ${README_MAIN_MARKER}`);
  return readme.slice(open + 6, close + 1);
}

describe('the packed package in an empty project', () => {
  let project: string;
  let sandbox: Awaited<ReturnType<typeof runStandaloneSandbox>>;
  const stopSandbox = new AbortController();
  const running: CliProcess[] = [];

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'controller-scope-pack-'));
    npm(['pack', '--pack-destination', project, '--silent'], REPO_ROOT);
    const tarball = readdirSync(project).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack wrote no tarball into ${project}`);
    // As the README sets a project up: `npm init -y && npm pkg set type=module`, then the package.
    npm(['init', '-y'], project);
    npm(['pkg', 'set', 'type=module'], project);
    // The registry is reachable, but what the checkout installed is in npm's cache: prefer it.
    npm(['install', `./${tarball}`, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel', 'error'], project);
    writeFileSync(join(project, 'controller.ts'), CONTROLLER);
    writeFileSync(join(project, 'main.ts'), readmeMain());
  }, 300_000);

  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    stopSandbox.abort();
    await sandbox?.done;
    rmSync(project, { recursive: true, force: true });
  });

  it('ships the runtime, the dashboard entry, the bin and the built web app, and no tests', () => {
    const files = npm(['pack', '--dry-run', '--json', '--ignore-scripts'], REPO_ROOT);
    const paths = (JSON.parse(files) as Array<{ files: Array<{ path: string }> }>)[0]?.files.map((f) => f.path) ?? [];
    expect(paths).toContain('server/runtime/index.ts');
    expect(paths).toContain('server/dashboard/index.ts');
    expect(paths).toContain('bin/controller-scope.mjs');
    expect(paths.some((p) => p.endsWith('.test.ts'))).toBe(false);
  });

  it('npx controller-scope run controller.ts: the user controller reconciles and its keys show, over socket.io', async () => {
    const cli = await startCli(['run', 'controller.ts', '--port', '0'], {
      cwd: project,
      bin: join(project, 'node_modules', 'controller-scope', 'bin', 'controller-scope.mjs'),
    });
    running.push(cli);
    const v = await cli.waitForView(
      'packed-configmaps reconciling with key states',
      (v) => {
        const c = v.controllers['packed-configmaps'];
        return c !== undefined && (c.reconciles.requeueAfter ?? 0) > 0 && Object.keys(c.keys).length > 0;
      },
      60_000,
    );
    expect(v.modules).toMatchObject([{ file: 'controller.ts', phase: 'loaded', controllers: ['packed-configmaps'] }]);
    const page = await fetch(cli.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  }, 120_000);

  it("the seed's main() with one added line serves the dashboard around the user's manager", async () => {
    const kubeconfig = join(project, 'sandbox.kubeconfig');
    sandbox = await runStandaloneSandbox({
      port: 0,
      kubeconfigOut: kubeconfig,
      signal: stopSandbox.signal,
      log: () => {},
    });
    const main = await startNode(['--import', 'tsx', 'main.ts'], {
      cwd: project,
      // The README's main listens on 7070; tests share the machine, so the port comes from the environment.
      env: { KUBECONFIG: kubeconfig, CONTROLLER_SCOPE_DASHBOARD_ADDRESS: '127.0.0.1:0' },
      urlLine: /dashboard: (http\S+)/,
    });
    running.push(main);
    // A fresh standalone sandbox has no Pods: give the PodCounter one to count.
    const created = await fetch(`${sandbox.url}/api/v1/namespaces/default/pods`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'counted' },
        spec: { containers: [{ name: 'app', image: 'nginx' }] },
      }),
    });
    expect(created.status).toBe(201);
    await main.waitForView(
      'pod-counter reconciling',
      (v) => (v.controllers['pod-counter']?.totalReconciles ?? 0) > 0,
      60_000,
    );
    await main.waitForOutput(/Number of pods: \d+/);
  }, 120_000);
});
