// A real trace backend for the tests: Jaeger v2 built by scripts/setup-jaeger.sh into the per-user cache,
// started with in-memory storage, an OTLP/HTTP receiver and its query API on free loopback ports.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

const REPO = join(import.meta.dirname, '..', '..', '..');

/** The binary: $CONTROLLER_SCOPE_JAEGER, else where setup-jaeger.sh caches the pinned version. */
export function jaegerBinary(): string | undefined {
  const given = process.env.CONTROLLER_SCOPE_JAEGER;
  if (given) return existsSync(given) ? given : undefined;
  const mod = readFileSync(join(REPO, 'scripts', 'jaeger-module', 'go.mod'), 'utf8');
  const version = /^\s*github\.com\/jaegertracing\/jaeger (v\S+)/m.exec(mod)?.[1];
  if (!version) return undefined;
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const root =
    process.env.CONTROLLER_SCOPE_JAEGER_CACHE ??
    join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'controller-scope', 'jaeger');
  const bin = join(root, `${version.slice(1)}-${process.platform}-${arch}`, 'jaeger');
  return existsSync(bin) ? bin : undefined;
}

export interface RunningJaeger {
  /** The OTLP/HTTP base URL to point exporters at. */
  otlp: string;
  /** The query service's HTTP base URL (/api/…). */
  query: string;
  output(): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function config(otlp: number, http: number, grpc: number): string {
  return `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_storage:
    backends:
      mem:
        memory:
          max_traces: 10000
  jaeger_query:
    storage:
      traces: mem
    http:
      endpoint: 127.0.0.1:${http}
    grpc:
      endpoint: 127.0.0.1:${grpc}
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${otlp}
exporters:
  jaeger_storage_exporter:
    trace_storage: mem
`;
}

/** Starts Jaeger and resolves once its query API answers (a port taken meanwhile fails the start loudly). */
export async function startJaeger(bin: string, timeoutMs = 120_000): Promise<RunningJaeger> {
  const [otlp, http, grpc] = [await freePort(), await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), 'jaeger-'));
  const file = join(dir, 'config.yaml');
  writeFileSync(file, config(otlp, http, grpc));
  const child: ChildProcess = spawn(bin, ['--config', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (out += b.toString()));
  const query = `http://127.0.0.1:${http}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`jaeger exited (${child.exitCode}) before it served:\n${out}`);
    const ok = await fetch(`${query}/api/services`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`jaeger did not serve ${query} in ${timeoutMs} ms:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    otlp: `http://127.0.0.1:${otlp}`,
    query,
    output: () => out,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
