// Tiny HTTP helpers for the sandbox's integration tests: JSON requests and a line-by-line watch reader.
import type { WatchEvent } from '../../../../shared/models/object';

export interface JsonResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function request<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<JsonResponse<T>> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(base + path, init);
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export interface WatchStream {
  status: number;
  /** Next event, or undefined once the server ended the stream. */
  next(): Promise<WatchEvent | undefined>;
  close(): void;
}

export async function openWatch(
  base: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<WatchStream> {
  const ctrl = new AbortController();
  const res = await fetch(base + path, { signal: ctrl.signal, headers });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  let done = false;
  return {
    status: res.status,
    async next() {
      for (;;) {
        const nl = buf.indexOf('\n');
        if (nl >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line.trim()) return JSON.parse(line) as WatchEvent;
          continue;
        }
        if (done) return undefined;
        try {
          const chunk = await reader.read();
          if (chunk.done) done = true;
          else buf += decoder.decode(chunk.value, { stream: true });
        } catch {
          done = true;
        }
      }
    },
    close() {
      ctrl.abort();
    },
  };
}
