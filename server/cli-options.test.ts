import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliUsageError, DEMO_CONTROLLERS, parseCli } from './cli-options';

function dashboard(argv: string[]) {
  const o = parseCli(argv);
  if (o.command !== 'dashboard') throw new Error(`expected dashboard options, got ${o.command}`);
  return o;
}

function usageError(argv: string[]): string {
  try {
    parseCli(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(CliUsageError);
    return (err as Error).message;
  }
  throw new Error(`expected ${argv.join(' ')} to be refused`);
}

describe('parseCli', () => {
  it('defaults to the sandbox on loopback with every demo controller, read-only', () => {
    const o = dashboard([]);
    expect(o.cluster).toEqual({ mode: 'sandbox' });
    expect(o.host).toBe('127.0.0.1');
    expect(o.port).toBe(7070);
    expect(o.allowWrites).toBe(false);
    expect(o.controllers).toEqual([...DEMO_CONTROLLERS]);
  });

  it('takes a kubeconfig cluster with a context, running only the pod counter by default', () => {
    const o = dashboard(['--kubeconfig', '/tmp/k', '--context', 'kind', '-n', 'team-a', '--allow-writes']);
    expect(o.cluster).toEqual({ mode: 'kubeconfig', kubeconfig: '/tmp/k', context: 'kind' });
    expect(o.namespace).toBe('team-a');
    expect(o.allowWrites).toBe(true);
    expect(o.controllers).toEqual(['pod-counter']);
  });

  it('parses replay with a speed, and the sandbox subcommand', () => {
    expect(dashboard(['--replay', 'r.jsonl', '--replay-speed', 'max']).cluster).toEqual({
      mode: 'replay',
      file: 'r.jsonl',
      speed: 'max',
    });
    expect(parseCli(['sandbox', '--port', '0', '--kubeconfig-out', 'k.yaml'])).toEqual({
      command: 'sandbox',
      port: 0,
      host: '127.0.0.1',
      kubeconfigOut: 'k.yaml',
      bare: false,
    });
    expect(parseCli(['sandbox', '--bare'])).toMatchObject({ command: 'sandbox', bare: true });
  });

  it('answers --help with text that explains every flag', () => {
    const o = parseCli(['--help']);
    expect(o.command).toBe('help');
    const text = o.command === 'help' ? o.text : '';
    for (const flag of [
      '--kubeconfig',
      '--context',
      '--sandbox',
      '--envtest',
      '--namespace',
      '--controllers',
      '--port',
      '--host',
      '--auth-token',
      '--allow-writes',
      '--record',
      '--replay',
      '--open',
    ]) {
      expect(text).toContain(flag);
    }
  });

  it('refuses unknown flags and bad values with what was expected', () => {
    expect(usageError(['--frobnicate'])).toMatch(/frobnicate.*--help/);
    expect(usageError(['--port', 'http'])).toMatch(/--port expects a port number/);
    expect(usageError(['--port', '70000'])).toMatch(/--port expects/);
    expect(usageError(['--controllers', 'pod-counter,nope'])).toMatch(/unknown: nope/);
    expect(usageError(['--sandbox', '--envtest'])).toMatch(/choose one cluster/);
    expect(usageError(['--replay-speed', '10'])).toMatch(/needs --replay/);
    expect(usageError(['--replay', 'x', '--replay-speed', '3'])).toMatch(/1, 10 or max/);
    expect(usageError(['--auth-token', 'short'])).toMatch(/at least 16/);
    expect(usageError(['serve'])).toMatch(/unexpected argument 'serve'/);
  });

  it('--envtest starts kube-controller-manager too; --envtest=bare the API server and etcd alone', () => {
    expect(dashboard(['--envtest']).cluster).toEqual({ mode: 'envtest' });
    expect(dashboard(['run', 'c.ts', '--envtest=bare']).cluster).toEqual({ mode: 'envtest', bare: true });
    expect(usageError(['--envtest=full'])).toMatch(/--envtest=full: --envtest takes no value .* or =bare/);
    expect(usageError(['--envtest=bare', '--sandbox'])).toMatch(/choose one cluster/);
  });

  it('--workload picks the demo churn; run starts with none, so only the user controller objects move', () => {
    expect(dashboard([]).workload).toBe('steady');
    expect(dashboard(['run', 'c.ts']).workload).toBe('none');
    expect(dashboard(['run', 'c.ts', '--workload', 'storm']).workload).toBe('storm');
    expect(dashboard(['--envtest', '--workload', 'none']).workload).toBe('none');
    expect(usageError(['--workload', 'busy'])).toMatch(/--workload takes steady, bursty, storm or none, got 'busy'/);
    expect(usageError(['--kubeconfig', 'k', '--workload', 'steady'])).toMatch(/--workload applies to a cluster/);
    expect(dashboard(['run', 'c.ts', '--kubeconfig-out', '/tmp/k']).kubeconfigOut).toBe('/tmp/k');
    expect(usageError(['--replay', 'r', '--kubeconfig-out', 'k'])).toMatch(/--kubeconfig-out applies/);
  });

  it('parses adopt-go DIR with --dry-run, and wants exactly one directory', () => {
    expect(parseCli(['adopt-go', './op'])).toEqual({ command: 'adopt-go', dir: './op', dryRun: false });
    expect(parseCli(['adopt-go', '--dry-run', './op'])).toEqual({ command: 'adopt-go', dir: './op', dryRun: true });
    expect(usageError(['adopt-go'])).toMatch(/adopt-go expects one directory/);
    expect(usageError(['adopt-go', 'a', 'b'])).toMatch(/adopt-go expects one directory/);
    expect(usageError(['adopt-go', '--port', '1', 'a'])).toMatch(/port.*--help/);
    const help = parseCli(['--help']);
    expect(help.command === 'help' && help.text).toContain('adopt-go DIR [--dry-run]');
  });

  it('parses test FILE… with its budget, seed, plans and outputs; defaults to 4 minutes and seed 1', () => {
    expect(parseCli(['test', 'a.ts'])).toEqual({
      command: 'test',
      files: ['a.ts'],
      seed: 1,
      timeMs: 240_000,
      json: false,
      plans: [],
      settleTimeoutMs: 15_000,
    });
    expect(
      parseCli([
        'test',
        'a.ts',
        'b.ts',
        '--scenario',
        's.yaml',
        '--seed',
        '7',
        '--runs',
        '20',
        '--time',
        '90s',
        '--json',
        '--junit',
        'out.xml',
        '--plan',
        'crash@write:3',
        '--plan',
        'fault:409@write:2',
        '--settle-timeout',
        '1m',
      ]),
    ).toEqual({
      command: 'test',
      files: ['a.ts', 'b.ts'],
      scenario: 's.yaml',
      seed: 7,
      runs: 20,
      timeMs: 90_000,
      json: true,
      junit: 'out.xml',
      plans: ['crash@write:3', 'fault:409@write:2'],
      settleTimeoutMs: 60_000,
    });
    expect(usageError(['test'])).toMatch(/test expects one or more controller files/);
    expect(usageError(['test', 'a.ts', '--time', 'soon'])).toMatch(/--time expects a duration such as 90s/);
    expect(usageError(['test', 'a.ts', '--seed', '1.5'])).toMatch(/--seed expects a whole number/);
    expect(usageError(['test', 'a.ts', '--watch'])).toMatch(/Unknown option '--watch'/);
  });

  it('--in-cluster selects a kubeconfig cluster found as controller-runtime finds it, read-only', () => {
    const o = dashboard(['--in-cluster']);
    expect(o.cluster).toEqual({ mode: 'kubeconfig', kubeconfig: undefined, context: undefined });
    expect(o.controllers).toEqual(['pod-counter']);
    expect(o.allowWrites).toBe(false);
    expect(usageError(['--in-cluster', '--kubeconfig', '/tmp/k'])).toMatch(/choose one cluster/);
    expect(usageError(['--in-cluster', '--sandbox'])).toMatch(/choose one cluster/);
  });

  it('--auth-token-file reads the token from a file (a mounted Secret), trimming its newline', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-token-'));
    try {
      const file = join(dir, 'token');
      writeFileSync(file, 'abcdefghijklmnopqrstuvwx\n');
      expect(dashboard(['--host', '10.0.0.5', '--auth-token-file', file]).authToken).toBe('abcdefghijklmnopqrstuvwx');
      writeFileSync(file, 'short\n');
      expect(usageError(['--auth-token-file', file])).toMatch(/the token in .*token must be at least 16/);
      expect(usageError(['--auth-token-file', join(dir, 'missing')])).toMatch(/missing: cannot read it \(ENOENT\)/);
      expect(usageError(['--auth-token', 'abcdefghijklmnopqrstuvwx', '--auth-token-file', file])).toMatch(
        /--auth-token or --auth-token-file, not both/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--ring-bytes takes a size with a binary or decimal unit, at least 1MiB, and not with --replay', () => {
    expect(dashboard([]).ringBytes).toBeUndefined();
    expect(dashboard(['--ring-bytes', '16MiB']).ringBytes).toBe(16 * 1024 * 1024);
    expect(dashboard(['--ring-bytes', '1.5GiB']).ringBytes).toBe(1.5 * 1024 ** 3);
    expect(dashboard(['--ring-bytes', '500MB']).ringBytes).toBe(500e6);
    expect(dashboard(['--ring-bytes', '2097152']).ringBytes).toBe(2097152);
    const attach = parseCli(['attach', '127.0.0.1:7071', '--ring-bytes', '8Mi']);
    expect(attach.command === 'attach' && attach.ringBytes).toBe(8 * 1024 * 1024);
    expect(usageError(['--ring-bytes', '64 parsecs'])).toMatch(/--ring-bytes expects a size .* got '64 parsecs'/);
    expect(usageError(['--ring-bytes', '100KiB'])).toMatch(/at least 1MiB/);
    expect(usageError(['--ring-bytes=-5MiB'])).toMatch(/--ring-bytes expects a size/);
    expect(usageError(['--replay', 'r.jsonl', '--ring-bytes', '16MiB'])).toMatch(/keeps the whole recording/);
  });
});
