// The API server of the scale run, as bytes generated on demand: discovery for the core group, a LIST or a
// WatchList stream of N realistic objects (bench/realistic-objects.ts, the same bytes every run), then, once
// told "go" on stdin, MODIFIED events at a steady rate to every open watch until stdin closes. Holds no
// objects (each is generated when it is written), so serving 100,000 of them costs little memory, and runs in
// its own process, so serving costs the measured dashboard process nothing.
//   tsx bench/scale-server.ts KIND N RATE        KIND: configmaps | pods   → prints "listening http://127.0.0.1:PORT"
// stdin: "go" starts the events; end of stdin stops the server. Every request path it does not serve is
// answered 404 and reported on stderr, so a client asking for something new shows up at once.
import { createServer, type ServerResponse } from 'node:http';
import { createInterface } from 'node:readline';
import { realisticConfigMap, realisticPod } from './realistic-objects';

type Json = Record<string, unknown>;

const [kindArg = 'configmaps', nArg = '1000', rateArg = '1000'] = process.argv.slice(2);
const N = Number(nArg);
const RATE = Number(rateArg);
const KINDS: Record<string, { kind: string; make: (i: number, rv: number) => Json }> = {
  configmaps: { kind: 'ConfigMap', make: (i, rv) => realisticConfigMap(i, rv) },
  pods: { kind: 'Pod', make: (i, rv) => realisticPod(i, rv) },
};
const served = KINDS[kindArg];
if (!served || !Number.isInteger(N) || N < 1 || !(RATE > 0)) {
  process.stderr.write(`usage: scale-server.ts configmaps|pods N RATE (got ${process.argv.slice(2).join(' ')})\n`);
  process.exit(2);
}
const { kind, make } = served;
const resource = kindArg;

const json = (res: ServerResponse, body: unknown, status = 200): void =>
  void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

const apiResource = (name: string, k: string, namespaced: boolean): Json => ({
  name,
  singularName: k.toLowerCase(),
  namespaced,
  kind: k,
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
});
const DISCOVERY: Record<string, unknown> = {
  '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] },
  '/apis': { kind: 'APIGroupList', apiVersion: 'v1', groups: [] },
  '/api/v1': {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [
      apiResource('configmaps', 'ConfigMap', true),
      apiResource('pods', 'Pod', true),
      apiResource('namespaces', 'Namespace', false),
      apiResource('events', 'Event', true),
    ],
  },
  '/version': { major: '1', minor: '32', gitVersion: 'v1.32.0' },
};

/** Writes generated text in ~64 KB pieces, waiting for the socket to drain as a real server would. */
async function stream(res: ServerResponse, pieces: Iterable<string>): Promise<void> {
  let buf = '';
  for (const p of pieces) {
    buf += p;
    if (buf.length < 64 * 1024) continue;
    if (res.destroyed) return;
    if (!res.write(buf)) await new Promise((r) => res.once('drain', r));
    buf = '';
  }
  if (buf && !res.destroyed) res.write(buf);
}

function* listBody(): Iterable<string> {
  yield `{"apiVersion":"v1","kind":"${kind}List","metadata":{"resourceVersion":"${N}"},"items":[`;
  for (let i = 0; i < N; i++) yield (i ? ',' : '') + JSON.stringify(make(i, i + 1));
  yield ']}';
}

const line = (type: string, object: unknown): string => `${JSON.stringify({ type, object })}\n`;

function* initialEvents(): Iterable<string> {
  for (let i = 0; i < N; i++) yield line('ADDED', make(i, i + 1));
  yield line('BOOKMARK', {
    apiVersion: 'v1',
    kind,
    metadata: { resourceVersion: String(N), annotations: { 'k8s.io/initial-events-end': 'true' } },
  });
}

/** Open watch streams that take the steady events (after their initial events, if any). */
const watchers = new Set<ServerResponse>();

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const doc = DISCOVERY[url.pathname];
  if (doc) return json(res, doc);
  if (url.pathname !== `/api/v1/${resource}`) {
    process.stderr.write(`scale-server: ${req.method} ${req.url} not served\n`);
    return json(res, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }, 404);
  }
  const watch = url.searchParams.get('watch');
  if (watch !== 'true' && watch !== '1') {
    res.writeHead(200, { 'content-type': 'application/json' });
    void stream(res, listBody()).then(() => res.end());
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
  res.on('close', () => watchers.delete(res));
  if (url.searchParams.get('sendInitialEvents') === 'true') {
    void stream(res, initialEvents()).then(() => watchers.add(res));
  } else watchers.add(res);
});

/** The j-th steady event: object j·7919 mod N (spread over the cache) with a label that changes every time. */
function steadyEvent(j: number): string {
  const obj = make((j * 7919) % N, N + 1 + j);
  const meta = obj['metadata'] as { labels?: Record<string, string> };
  meta.labels = { ...meta.labels, 'example.com/revision': String(j) };
  return line('MODIFIED', obj);
}

function startEvents(): void {
  const began = performance.now();
  let sent = 0;
  // 10 ms ticks that catch up to the schedule, so a slow turn never lowers the rate.
  setInterval(() => {
    const due = Math.floor(((performance.now() - began) / 1000) * RATE);
    let out = '';
    for (; sent < due; sent++) out += steadyEvent(sent);
    if (out) for (const w of watchers) w.write(out);
  }, 10);
}

const rl = createInterface({ input: process.stdin });
rl.on('line', (l) => {
  if (l.trim() === 'go') startEvents();
});
rl.on('close', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  const a = server.address();
  if (a && typeof a === 'object') process.stdout.write(`listening http://127.0.0.1:${a.port}\n`);
});
