// Readiness polling for the control plane, after controller-runtime's process.go (poll a health URL until it
// answers 200) and envtest's wait for the "default" namespace. Real timers on purpose: this waits for real
// processes, so an injected Clock would add nothing.

import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ManagedProcess } from './process';
import { errorMessage } from '../../runtime';

export interface TlsMaterial {
  ca: string;
  cert?: string;
  key?: string;
}

export interface HttpResult {
  status: number;
  body: string;
}

/** One GET (or other method) with a short timeout; rejects on connection errors. */
export function httpCall(
  url: string,
  options: { tls?: TlsMaterial; method?: string; body?: string; timeoutMs?: number } = {},
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(options.body));
    }
    const common = { method: options.method ?? 'GET', headers, timeout: options.timeoutMs ?? 5_000 };
    const req =
      u.protocol === 'https:'
        ? httpsRequest(u, { ...common, ca: options.tls?.ca, cert: options.tls?.cert, key: options.tls?.key })
        : httpRequest(u, common);
    req.on('timeout', () => req.destroy(new Error(`timeout after ${common.timeout} ms`)));
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.end(options.body);
  });
}

export class ReadinessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReadinessError';
  }
}

/**
 * Polls `probe` until it returns true. Fails early when `watch` exits (no point waiting for a dead process),
 * on timeout, or when the signal aborts. `describe` names what is awaited, for the error message.
 */
export async function pollUntilReady(options: {
  describe: string;
  probe: () => Promise<boolean>;
  watch: ManagedProcess[];
  timeoutMs: number;
  intervalMs: number;
  signal?: AbortSignal;
}): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let lastError = 'no answer yet';
  for (;;) {
    options.signal?.throwIfAborted();
    const dead = options.watch.find((p) => p.exitStatus !== undefined);
    if (dead) {
      const s = dead.exitStatus;
      throw new ReadinessError(
        `${dead.name} exited (code ${s?.code ?? 'none'}, signal ${s?.signal ?? 'none'}) while waiting for ${options.describe}`,
      );
    }
    try {
      if (await options.probe()) return;
      lastError = 'not ready';
    } catch (err) {
      lastError = errorMessage(err);
    }
    if (Date.now() >= deadline) {
      throw new ReadinessError(
        `timed out after ${options.timeoutMs} ms waiting for ${options.describe} (${lastError})`,
      );
    }
    await sleep(options.intervalMs, undefined, { signal: options.signal });
  }
}
