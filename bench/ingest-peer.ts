// One ingest measurement in a process of its own (clean CPU, heap and peak-RSS figures): a client syncs the N
// Pods from bytes-server and handles the M watch events; prints one JSON line.
//   tsx --expose-gc bench/ingest-peer.ts PEER URL N M
// PEER: ours (WatchList, the default), ours-list (LIST then WATCH), ours-strip (WatchList with the
// strip-managedFields transform, which also skips parsing managedFields), ours-compact (WatchList, strip managedFields then intern repeated strings),
// ours-lean (ours-compact, then share equal small subtrees across the cached objects),
// client-node (its makeInformer), floor (JSON.parse of the same bytes into a Map, nothing else), and two rows
// that split ours: transport (our HTTP client and watch decoding over the WatchList stream, events into a Map,
// no informer) beside floor-lines (the floor's line parsing of that same WatchList stream).
import { request } from 'node:http';
import { CoreV1Api, KubeConfig, makeInformer, type V1Pod } from '@kubernetes/client-node';
import type { KubeObject } from '../shared/models/object';
import {
  chainTransforms,
  metaNamespaceIndexFunc,
  NAMESPACE_INDEX,
  newSharedIndexInformer,
  transformInternStrings,
  transformShareSubtrees,
  transformStripManagedFields,
  type TransformFunc,
} from '../server/runtime/cache';
import { HttpClient, RestConfig, newListWatchFromClient } from '../server/runtime/client';
import { heapUsed, startTimer } from './harness';
import type { IngestResult } from './ingest-peer-result';

const [peer, url, nArg, mArg] = process.argv.slice(2) as [string, string, string, string];
const N = Number(nArg);
const M = Number(mArg);
const total = N + M;

/** Resolves when the handler saw every event; what holds the objects stays referenced until measured. */
type Run = (done: () => void, tick: () => void) => Promise<{ keep: unknown; stop: () => Promise<void> | void }>;

const ours =
  (useWatchList: boolean, transform?: TransformFunc<KubeObject>): Run =>
  async (_done, tick) => {
    const http = new HttpClient({ config: RestConfig.forServer(url) });
    const informer = newSharedIndexInformer<KubeObject>({
      listerWatcher: newListWatchFromClient({ http, gvr: { group: '', version: 'v1', resource: 'pods' } }),
      objectType: 'v1/Pod',
      indexers: { [NAMESPACE_INDEX]: metaNamespaceIndexFunc },
      useWatchList,
      ...(transform ? { transform } : {}),
    });
    informer.addEventHandler({ onAdd: tick, onUpdate: tick });
    const ctl = new AbortController();
    const running = informer.run(ctl.signal);
    return {
      keep: informer,
      stop: async () => {
        ctl.abort();
        await running;
      },
    };
  };

const clientNode: Run = async (_done, tick) => {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: 'bench', server: url, skipTLSVerify: true }, { name: 'bench' });
  const api = kc.makeApiClient(CoreV1Api);
  const informer = makeInformer<V1Pod>(kc, '/api/v1/pods', () => api.listPodForAllNamespaces());
  informer.on('add', tick);
  informer.on('update', tick);
  await informer.start();
  return { keep: informer, stop: () => informer.stop() };
};

function get(path: string, onData: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, (res) => {
      res.on('data', onData);
      res.on('end', resolve);
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const keyOf = (o: KubeObject): string => `${o.metadata.namespace}/${o.metadata.name}`;

/** The floor's watch parsing: each chunk decoded, each line parsed and its object kept; bookmarks skipped. */
function parseLines(objects: Map<string, unknown>, tick: () => void): (chunk: Buffer) => void {
  let rest = '';
  return (c) => {
    const text = rest + c.toString();
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      const ev = JSON.parse(text.slice(start, nl)) as { type: string; object: KubeObject };
      start = nl + 1;
      if (ev.type === 'BOOKMARK') continue;
      objects.set(keyOf(ev.object), ev.object);
      tick();
    }
    rest = text.slice(start);
  };
}

const floor: Run = async (_done, tick) => {
  const objects = new Map<string, unknown>();
  const parts: Buffer[] = [];
  await get('/api/v1/pods', (c) => parts.push(c));
  const list = JSON.parse(Buffer.concat(parts).toString()) as {
    items: KubeObject[];
    metadata: { resourceVersion: string };
  };
  for (const o of list.items) {
    objects.set(keyOf(o), o);
    tick();
  }
  const watching = get(
    `/api/v1/pods?watch=true&resourceVersion=${list.metadata.resourceVersion}`,
    parseLines(objects, tick),
  );
  void watching.catch(() => undefined);
  return { keep: objects, stop: () => undefined };
};

const WATCH_LIST_QUERY = 'watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true';

const floorLines: Run = async (_done, tick) => {
  const objects = new Map<string, unknown>();
  void get(`/api/v1/pods?${WATCH_LIST_QUERY}`, parseLines(objects, tick)).catch(() => undefined);
  return { keep: objects, stop: () => undefined };
};

const transport: Run = async (_done, tick) => {
  const http = new HttpClient({ config: RestConfig.forServer(url) });
  const lw = newListWatchFromClient({ http, gvr: { group: '', version: 'v1', resource: 'pods' } });
  const w = await lw.watch({
    sendInitialEvents: true,
    resourceVersionMatch: 'NotOlderThan',
    allowWatchBookmarks: true,
  });
  const objects = new Map<string, unknown>();
  const reading = (async () => {
    for await (const ev of w) {
      if (ev.type === 'BOOKMARK') continue;
      const o = ev.object as KubeObject;
      objects.set(keyOf(o), o);
      tick();
    }
  })();
  void reading.catch(() => undefined);
  return { keep: objects, stop: () => w.stop() };
};

const RUNS: Record<string, Run> = {
  ours: ours(true),
  'ours-list': ours(false),
  'ours-strip': ours(true, transformStripManagedFields()),
  'ours-compact': ours(true, chainTransforms(transformStripManagedFields(), transformInternStrings())),
  'ours-lean': ours(
    true,
    chainTransforms(transformStripManagedFields(), transformInternStrings(), transformShareSubtrees()),
  ),
  'client-node': clientNode,
  floor,
  'floor-lines': floorLines,
  transport,
};

async function main(): Promise<void> {
  const run = RUNS[peer];
  if (!run) throw new Error(`unknown peer ${peer}; expected one of ${Object.keys(RUNS).join(', ')}`);
  const before = heapUsed();
  let count = 0;
  let finish!: () => void;
  const finished = new Promise<void>((r) => (finish = r));
  const tick = (): void => {
    if (++count === total) finish();
  };
  const timer = startTimer();
  const handle = await run(finish, tick);
  await finished;
  const { ms, cpuMs } = timer.stop();
  const retained = heapUsed() - before;
  const result: IngestResult = {
    peer,
    events: total,
    ms,
    cpuMs,
    peakRssMB: process.resourceUsage().maxRSS / 1024,
    ...(typeof (globalThis as { gc?: unknown }).gc === 'function' ? { retainedBytesPerObject: retained / N } : {}),
  };
  void handle.keep;
  process.stdout.write(`${JSON.stringify(result)}\n`);
  await handle.stop();
  process.exit(0);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
