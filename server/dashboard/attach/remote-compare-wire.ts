// What an attached process answers to GET /compare: its informer's keys and versions and a paged LIST's,
// checked before use (it arrives from the network) and read with a cap on its size.

/** An answer larger than this is refused: about 600,000 keys with their versions. */
export const MAX_COMPARE_BYTES = 64 * 1024 * 1024;

export interface RemoteVersions {
  listResourceVersion: string;
  pages: number;
  server: Map<string, string>;
  cache: Map<string, string>;
}

/** The body as text, refusing it once it passes maxBytes. */
export async function readCapped(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return '';
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for await (const chunk of res.body) {
    bytes += (chunk as Uint8Array).byteLength;
    if (bytes > maxBytes) throw new Error(`the answer passed ${maxBytes} bytes; compare a smaller informer`);
    text += decoder.decode(chunk as Uint8Array, { stream: true });
  }
  return text + decoder.decode();
}

function pairs(v: unknown, what: string): Map<string, string> {
  if (!Array.isArray(v)) throw new Error(`the compare answer's ${what} is not a list`);
  const out = new Map<string, string>();
  for (const p of v) {
    if (!Array.isArray(p) || typeof p[0] !== 'string' || typeof p[1] !== 'string')
      throw new Error(`the compare answer's ${what} holds an entry that is not [key, resourceVersion]`);
    out.set(p[0], p[1]);
  }
  return out;
}

export function parseRemoteVersions(body: unknown): RemoteVersions {
  const b = body as Record<string, unknown> | null;
  if (typeof b !== 'object' || b === null || typeof b.listResourceVersion !== 'string' || typeof b.pages !== 'number')
    throw new Error('not a compare answer (needs listResourceVersion, pages, server and cache)');
  return {
    listResourceVersion: b.listResourceVersion,
    pages: b.pages,
    server: pairs(b.server, 'server'),
    cache: pairs(b.cache, 'cache'),
  };
}
