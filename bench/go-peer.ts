// Builds the Go peers (bench/go, client-go itself) and runs them, reading one JSON figure per line.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Figure } from './harness';

const GO_DIR = fileURLToPath(new URL('./go', import.meta.url));
const BINARY = join(tmpdir(), 'controller-scope-bench-peer');

/** $GO, else the usual install path, else whatever `go` is on PATH. */
function goBinary(): string {
  for (const c of [process.env.GO, '/usr/local/go/bin/go']) if (c && existsSync(c)) return c;
  return 'go';
}

/** "go1.26.8 linux/amd64", or undefined when there is no toolchain. */
export async function goVersion(): Promise<string | undefined> {
  try {
    return (await run(goBinary(), ['version'], { timeoutMs: 10_000 })).trim().replace(/^go version /, '');
  } catch {
    return undefined;
  }
}

function run(
  cmd: string,
  args: string[],
  opts: { cwd?: string; timeoutMs: number; env?: Record<string, string> },
): Promise<string> {
  const env = opts.env ? { ...process.env, ...opts.env } : process.env;
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd: opts.cwd, env, timeout: opts.timeoutMs, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')}: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

/** go build into a temp file; the first build downloads modules and compiles client-go (a minute or two). */
export async function buildGoPeer(): Promise<string> {
  await run(goBinary(), ['build', '-o', BINARY, '.'], { cwd: GO_DIR, timeoutMs: 10 * 60_000 });
  return BINARY;
}

/** Runs the peer; `oneCore` sets GOMAXPROCS=1, the fairest match for our single JavaScript thread. */
export async function runGoPeer(binary: string, args: string[], opts: { oneCore?: boolean } = {}): Promise<Figure[]> {
  const out = await run(binary, args, { timeoutMs: 120_000, ...(opts.oneCore ? { env: { GOMAXPROCS: '1' } } : {}) });
  return out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => {
      const f = JSON.parse(l) as Figure;
      return { ...f, impl: 'client-go' as const };
    });
}
