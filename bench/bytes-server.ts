// A Kubernetes-shaped HTTP server that only replays bytes held in memory: a LIST of N realistic Pods, then a
// watch stream of M MODIFIED events (or, for a WatchList request, N ADDED events, the initial-events-end
// bookmark and the M events). Run as its own process, so serving costs the measured client nothing:
//   tsx bench/bytes-server.ts N M [--no-managed-fields] [--go BIN]   → prints "listening http://127.0.0.1:PORT"
// With --go (the Go peer's binary) it also holds the same objects as Kubernetes protobuf and serves them to a
// client whose Accept asks for application/vnd.kubernetes.protobuf.
import { createServer, type ServerResponse } from 'node:http';
import { PROTOBUF, PROTOBUF_WATCH, toProtobuf, type ProtobufBytes } from './bytes-protobuf';
import { realisticPod } from './realistic-objects';

const [nArg, mArg] = process.argv.slice(2);
const N = Number(nArg);
const M = Number(mArg);
const withManagedFields = !process.argv.includes('--no-managed-fields');
const goAt = process.argv.indexOf('--go');
const goBin = goAt > 0 ? process.argv[goAt + 1] : undefined;
const CHUNK_BYTES = 64 * 1024;

const pods = Array.from({ length: N }, (_, i) => realisticPod(i, i + 1, withManagedFields));
const list = Buffer.from(
  JSON.stringify({ apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: String(N) }, items: pods }),
);
const line = (type: string, object: unknown): string => `${JSON.stringify({ type, object })}\n`;
/** Newline-delimited events, joined into ~64 KB writes as a real server's chunks would be. */
function chunks(lines: Iterable<string>): Buffer[] {
  const out: Buffer[] = [];
  let buf = '';
  for (const l of lines) {
    buf += l;
    if (buf.length > CHUNK_BYTES) {
      out.push(Buffer.from(buf));
      buf = '';
    }
  }
  if (buf) out.push(Buffer.from(buf));
  return out;
}
function* updates(): Iterable<string> {
  for (let j = 0; j < M; j++) {
    const pod = realisticPod(j % N, N + 1 + j, withManagedFields);
    (pod['metadata'] as Record<string, unknown>)['labels'] = {
      ...(pod['metadata'] as { labels: object }).labels,
      rev: String(j),
    };
    yield line('MODIFIED', pod);
  }
}
const watchLines = [...updates()];
const initialLines = [
  ...pods.map((p) => line('ADDED', p)),
  line('BOOKMARK', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { resourceVersion: String(N), annotations: { 'k8s.io/initial-events-end': 'true' } },
  }),
];
const watchUpdates = chunks(watchLines);
const initialEvents = chunks(initialLines);
function protobufForm(): ProtobufBytes | undefined {
  if (!goBin) return undefined;
  try {
    return toProtobuf(
      goBin,
      { list, initialLines: initialLines.join(''), watchLines: watchLines.join('') },
      CHUNK_BYTES,
    );
  } catch (err) {
    // The JSON peers still run; the runner reports this line and leaves the protobuf row out.
    const detail = (err instanceof Error ? err.message : String(err)).split('\n').filter(Boolean).slice(-1)[0];
    process.stdout.write(`protobuf unavailable: ${detail}\n`);
    return undefined;
  }
}
const protobuf = protobufForm();

async function send(res: ServerResponse, parts: readonly Buffer[]): Promise<void> {
  for (const p of parts) {
    if (res.destroyed) return;
    if (!res.write(p)) await new Promise((r) => res.once('drain', r));
  }
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname !== '/api/v1/pods') {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"kind":"Status","code":404}');
    return;
  }
  // As kube-apiserver: protobuf when the client lists it in Accept (client-go puts JSON after it as a fallback).
  const pb = protobuf && (req.headers.accept ?? '').includes(PROTOBUF) ? protobuf : undefined;
  if (url.searchParams.get('watch') !== 'true' && url.searchParams.get('watch') !== '1') {
    res.writeHead(200, { 'content-type': pb ? PROTOBUF : 'application/json' }).end(pb ? pb.list : list);
    return;
  }
  res.writeHead(200, { 'content-type': pb ? PROTOBUF_WATCH : 'application/json', 'transfer-encoding': 'chunked' });
  const initial = url.searchParams.get('sendInitialEvents') === 'true';
  const from = Number(url.searchParams.get('resourceVersion') ?? '0');
  const held = pb ?? { initialEvents, watchUpdates };
  // A reconnect after the stream: nothing new, held open like an idle watch.
  const parts = initial ? [...held.initialEvents, ...held.watchUpdates] : from === N ? held.watchUpdates : [];
  if (process.env['BYTES_SERVER_LOG']) {
    process.stderr.write(`${pb ? 'protobuf' : 'json'} ${initial ? 'watchlist' : 'watch'} rv=${from}\n`);
  }
  void send(res, parts);
});
server.listen(0, '127.0.0.1', () => {
  const a = server.address();
  if (!a || typeof a !== 'object') return;
  if (protobuf) process.stdout.write(`protobuf ${protobuf.list.length} bytes of PodList\n`);
  process.stdout.write(`listening http://127.0.0.1:${a.port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
