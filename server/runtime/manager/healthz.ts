// Ports controller-runtime pkg/healthz/healthz.go: named checks behind an aggregated endpoint and one
// sub-path per check, answered as text/plain. Transport-free: the dashboard's server or the manager's
// own probe server mounts handle().
import { errorMessage } from '../util/errors';
export type Checker = () => void | Promise<void>;

export const CONTENT_TYPE = 'text/plain; charset=utf-8';

export interface HealthResponse {
  status: number;
  contentType: string;
  body: string;
}

/** healthz.Ping */
export const ping: Checker = () => undefined;

export class HealthzHandler {
  constructor(private readonly checks: Map<string, Checker>) {}

  /**
   * subPath: "" (or "/") for the aggregate, "/<name>" for one check. query: the parsed query string
   * (exclude may repeat; verbose is a flag).
   */
  async handle(subPath: string, query: URLSearchParams = new URLSearchParams()): Promise<HealthResponse> {
    const name = subPath.replace(/^\/+/, '').replace(/\/+$/, '');
    const checks = this.checks.size > 0 ? this.checks : new Map([['ping', ping]]);
    if (name !== '') {
      const check = checks.get(name);
      if (!check) return { status: 404, contentType: CONTENT_TYPE, body: '404 page not found\n' };
      try {
        await check();
        return { status: 200, contentType: CONTENT_TYPE, body: 'ok' };
      } catch (err) {
        const msg = errorMessage(err);
        return { status: 500, contentType: CONTENT_TYPE, body: `internal server error: ${msg}\n` };
      }
    }
    const excluded = new Set(
      query
        .getAll('exclude')
        .flatMap((v) => v.split(','))
        .map((v) => v.trim()),
    );
    const verbose = query.has('verbose');
    const lines: string[] = [];
    let failed = false;
    for (const n of [...checks.keys()].sort()) {
      if (excluded.has(n)) {
        excluded.delete(n);
        lines.push(`[+]${n} excluded: ok`);
        continue;
      }
      try {
        await checks.get(n)?.();
        lines.push(`[+]${n} ok`);
      } catch {
        failed = true;
        lines.push(`[-]${n} failed: reason withheld`);
      }
    }
    if (excluded.size > 0) {
      const names = [...excluded].map((n) => JSON.stringify(n)).join(' ');
      lines.push(`warn: some health checks cannot be excluded: no matches for ${names}`);
    }
    if (!failed && !verbose) return { status: 200, contentType: CONTENT_TYPE, body: 'ok' };
    lines.push(failed ? 'healthz check failed' : 'healthz check passed');
    return { status: failed ? 500 : 200, contentType: CONTENT_TYPE, body: `${lines.join('\n')}\n` };
  }
}
