// `npx controller-scope`: parses flags, starts what they ask for, and turns failures into one clear line
// (exit 2 for a usage error, 1 for anything else). No logic beyond dispatch.
import { spawn } from 'node:child_process';
import { CliUsageError, parseCli } from './cli-options';
import { runStandaloneSandbox } from './cluster/sandbox';
import { runAttach } from './attach';
import { runAdoptGo } from './adopt-go';
import { runTestCommand } from './testlab/command';
import { PlanSyntaxError } from './testlab/plan';
import { ScenarioError } from './testlab/scenario-file';
import { runApp } from './main';
import { applyHeapPolicy } from './heap-policy';
import { errorMessage } from './runtime/util/errors';

async function main(argv: string[]): Promise<void> {
  const opts = parseCli(argv);
  applyHeapPolicy();
  if (opts.command === 'help') {
    process.stdout.write(opts.text);
    return;
  }
  if (opts.command === 'adopt-go') {
    process.exitCode = await runAdoptGo(opts);
    return;
  }
  if (opts.command === 'test') {
    try {
      process.exitCode = await runTestCommand(opts);
    } catch (err) {
      // A plan or scenario the user wrote wrongly is a usage error, like a bad flag.
      if (err instanceof PlanSyntaxError || err instanceof ScenarioError) throw new CliUsageError(err.message);
      throw err;
    }
    // Whatever a user's module left running (timers, sockets) must not keep the test from ending.
    process.exit(process.exitCode);
  }
  if (opts.command === 'sandbox') {
    const s = await runStandaloneSandbox({
      port: opts.port,
      host: opts.host,
      bare: opts.bare,
      ...(opts.kubeconfigOut ? { kubeconfigOut: opts.kubeconfigOut } : {}),
    });
    await s.done;
    return;
  }
  // Installed before start-up: a signal while a module's setup runs (or never settles) must still exit
  // through process.exit, whose exit handlers remove the temp dirs (server/cluster/temp-dir.ts); the
  // default action kills the process without running them.
  const started: { app?: Awaited<ReturnType<typeof runApp>> | Awaited<ReturnType<typeof runAttach>> } = {};
  let stopping = false;
  const stop = (sig: string): void => {
    const app = started.app;
    if (stopping) process.exit(1);
    if (!app) {
      console.log(`\n${sig}: stopping during start-up`);
      process.exit(sig === 'SIGINT' ? 130 : 143);
    }
    stopping = true;
    console.log(`\n${sig}: stopping (press Ctrl-C again to force)`);
    app.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`error while stopping: ${errorMessage(err)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  const app = opts.command === 'attach' ? await runAttach(opts) : await runApp(opts);
  started.app = app;
  console.log(`controller-scope is running: open ${app.url}  (Ctrl-C stops it)`);
  if (opts.open) openBrowser(app.url);
}

function openBrowser(url: string): void {
  const child = spawn('xdg-open', [url], { stdio: 'ignore', detached: true });
  child.on('error', () => console.log(`could not open a browser (xdg-open is missing): open ${url} yourself`));
  child.unref();
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof CliUsageError) {
    console.error(`controller-scope: ${err.message}`);
    process.exit(2);
  }
  console.error(`controller-scope: ${errorMessage(err)}`);
  process.exit(1);
});
