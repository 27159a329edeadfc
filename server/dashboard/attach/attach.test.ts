import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../../shared/protocol/events';
import { parseCli } from '../../cli-options';
import { BridgeConnection } from './bridge-connection';
import { LineSplitter, parseEventLine, parseHello } from './bridge-wire';
import { KeyMirror } from './key-mirror';
import { intoLane, splitLaneName } from './lanes';

describe('bridge wire', () => {
  it('takes an event line apart into the process seq and the event, without its stamp', () => {
    const w = parseEventLine('{"seq":7,"ts":1.5,"kind":"queue.forget","queue":"c","key":"ns/a"}');
    expect(w).toEqual({ seq: 7, event: { kind: 'queue.forget', queue: 'c', key: 'ns/a' } });
  });

  it('skips heartbeats and lines that are not events', () => {
    for (const line of ['', '   ', 'not json', '[1]', '{"seq":1}', '{"seq":1,"kind":"nodot"}']) {
      expect(parseEventLine(line)).toBeUndefined();
    }
    // An event without a seq cannot be ordered: it is refused as one (and counted by the connection).
    expect(parseEventLine('{"kind":"x.y"}')).toBe('bad-seq');
  });

  it('refuses a hello that is not a bridge', () => {
    expect(() => parseHello({ hello: 1 })).toThrow(/not a controller-scope bridge/);
    expect(parseHello({ protocolVersion: 1, epoch: 'e', controllers: ['a', 3] }).controllers).toEqual(['a']);
  });

  it('keeps a partial line for the next chunk', () => {
    const s = new LineSplitter();
    const enc = new TextEncoder();
    expect(s.push(enc.encode('{"a":1}\n{"b"')).lines).toEqual(['{"a":1}']);
    expect(s.push(enc.encode(':2}\n')).lines).toEqual(['{"b":2}']);
  });
});

describe('lanes', () => {
  it('prefixes controller, queue and informer names with the process, and splits them back', () => {
    const ev = intoLane({ kind: 'queue.forget', queue: 'website', key: 'ns/a' }, 'pod-1');
    expect(ev).toMatchObject({ queue: '[pod-1] website', key: 'ns/a' });
    expect(splitLaneName('[pod-1] website')).toEqual({ lane: 'pod-1', name: 'website' });
    expect(splitLaneName('website')).toEqual({ name: 'website' });
    expect(intoLane({ kind: 'queue.forget', queue: 'website', key: 'k' }, undefined)).toMatchObject({
      queue: 'website',
    });
  });

  it('leaves a controller’s queue kind and sources alone: they are not names', () => {
    const ev = intoLane(
      {
        kind: 'controller.lifecycle',
        controller: 'website',
        phase: 'started',
        queueKind: 'priority',
        sources: [{ role: 'for', kind: 'v1/ConfigMap' }],
      },
      'pod-1',
    );
    expect(ev).toMatchObject({
      controller: '[pod-1] website',
      queueKind: 'priority',
      sources: [{ kind: 'v1/ConfigMap' }],
    });
  });
});

describe('controller-scope attach flags', () => {
  it('parses addresses, the bridge token and the dashboard flags', () => {
    expect(parseCli(['attach', '127.0.0.1:7071,10.0.0.2:7071', '--token', 't', '--port', '0'])).toMatchObject({
      command: 'attach',
      addresses: ['127.0.0.1:7071', '10.0.0.2:7071'],
      bridgeToken: 't',
      port: 0,
      host: '127.0.0.1',
    });
    expect(parseCli(['attach'])).toMatchObject({ addresses: ['127.0.0.1:7071'] });
  });

  it('says what an address must look like', () => {
    expect(() => parseCli(['attach', 'nope'])).toThrow(/host:port/);
  });
});

/** A stand-in bridge: a hello, and a stream that serves events after the requested seq. */
function fakeBridge(epoch: () => string, events: string[]) {
  const afters: number[] = [];
  const streams = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/hello') {
      res.end(
        JSON.stringify({
          protocolVersion: 1,
          epoch: epoch(),
          process: 'p',
          controllers: ['c'],
          seq: events.length,
          firstSeq: 1,
          dropped: 0,
          steppable: ['c'],
        }),
      );
      return;
    }
    const after = Number(url.searchParams.get('after'));
    afters.push(after);
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    events.forEach((e, i) => i + 1 > after && res.write(`{"seq":${i + 1},"ts":0,${e.slice(1)}\n`));
    streams.add(res);
  });
  return {
    afters,
    async listen(): Promise<string> {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    dropStreams() {
      for (const s of streams) s.destroy();
      streams.clear();
    },
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

function collector() {
  const got: RuntimeEvent[] = [];
  return { got, probe: { enabled: true, emit: (e: RuntimeEvent) => void got.push(e) } };
}

/** Waits for pred; the bound is only there so a broken build fails instead of hanging, even on a loaded machine. */
async function until(pred: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!pred() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  expect(pred()).toBe(true);
}

describe('BridgeConnection', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  it('resumes after a dropped stream from the last seq it received, without repeating events', async () => {
    const events = ['{"kind":"queue.forget","queue":"c","key":"a"}', '{"kind":"queue.forget","queue":"c","key":"b"}'];
    const bridge = fakeBridge(() => 'e1', events);
    const address = await bridge.listen();
    const { got, probe } = collector();
    const conn = new BridgeConnection({ address, probe, retryMs: 10 });
    cleanups.push(
      () => conn.close(),
      () => bridge.close(),
    );
    conn.start();
    await until(() => got.filter((e) => e.kind === 'queue.forget').length === 2);
    events.push('{"kind":"queue.forget","queue":"c","key":"c"}');
    bridge.dropStreams();
    await until(() => got.filter((e) => e.kind === 'queue.forget').length === 3);
    expect(bridge.afters).toEqual([0, 2]);
    expect(got.filter((e) => e.kind === 'bridge.process').map((e) => e.kind === 'bridge.process' && e.phase)).toEqual([
      'connected',
      'gone',
      'resumed',
    ]);
    expect(conn.controllers()).toEqual(['c']);
  });

  it('keeps retrying a gone process without piling listeners on its signal', async () => {
    let hellos = 0;
    const server = createServer((_req, res) => {
      hellos++;
      res.writeHead(503).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.name);
    process.on('warning', onWarning);
    const { probe } = collector();
    const conn = new BridgeConnection({
      address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
      probe,
      retryMs: 1,
    });
    cleanups.push(
      async () => {
        process.off('warning', onWarning);
      },
      () => conn.close(),
      () => new Promise<void>((r) => server.close(() => r())),
    );
    conn.start();
    await until(() => hellos >= 30);
    // A warning is emitted on the next tick after the listener that crosses the limit.
    await new Promise((r) => setImmediate(r));
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });

  it('starts over when the process is a new one (another epoch)', async () => {
    let epoch = 'e1';
    const bridge = fakeBridge(() => epoch, ['{"kind":"queue.forget","queue":"c","key":"a"}']);
    const address = await bridge.listen();
    const { got, probe } = collector();
    const conn = new BridgeConnection({ address, probe, retryMs: 10, lanes: true });
    cleanups.push(
      () => conn.close(),
      () => bridge.close(),
    );
    conn.start();
    await until(() => got.some((e) => e.kind === 'queue.forget'));
    epoch = 'e2';
    bridge.dropStreams();
    await until(() => bridge.afters.length === 2);
    expect(bridge.afters).toEqual([0, 0]);
    expect(got.find((e) => e.kind === 'queue.forget')).toMatchObject({ queue: '[p] c' });
  });
});

describe('KeyMirror', () => {
  it('keeps the keys of each informer and fetches a changed object once at a time', async () => {
    const { got, probe } = collector();
    const fetched: string[] = [];
    let release: () => void = () => undefined;
    const mirror = new KeyMirror(probe, (informer, key) => {
      fetched.push(`${informer} ${key}`);
      return new Promise(
        (r) => (release = () => r({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'ns' } })),
      );
    });
    const ref = { gvk: 'v1/ConfigMap', namespace: 'ns', name: 'a' };
    const update = (op: 'add' | 'update' | 'delete') =>
      mirror.emit({ kind: 'indexer.update', informer: '[p] v1/ConfigMap', op, key: 'ns/a', ref, size: 1 });
    update('add');
    update('update');
    update('update');
    expect(fetched).toEqual(['v1/ConfigMap ns/a']); // one in flight; the later changes wait for it
    release();
    await until(() => fetched.length === 2);
    release();
    await until(() => mirror.get('v1/ConfigMap', 'ns', 'a') !== undefined);
    expect(mirror.keys('[p] v1/ConfigMap')).toEqual(['ns/a']);
    update('delete');
    expect(mirror.keys('[p] v1/ConfigMap')).toEqual([]);
    expect(mirror.get('v1/ConfigMap', 'ns', 'a')).toBeUndefined();
    expect(got).toHaveLength(4);
  });

  it("forgets the keys of a process's earlier run once a new run connects or an informer starts again", () => {
    const { probe } = collector();
    const mirror = new KeyMirror(probe);
    const add = (name: string) =>
      mirror.emit({
        kind: 'indexer.update',
        informer: 'v1/ConfigMap',
        op: 'add',
        key: `ns/${name}`,
        ref: { gvk: 'v1/ConfigMap', namespace: 'ns', name },
        size: 1,
      });
    add('gone-while-down');
    // The process was killed; the object was deleted while it was down; the new run lists only what is left.
    mirror.emit({ kind: 'bridge.process', process: 'p', address: 'a:1', phase: 'connected' });
    add('still-here');
    expect(mirror.keys('v1/ConfigMap')).toEqual(['ns/still-here']);
    mirror.emit({ kind: 'informer.lifecycle', informer: 'v1/ConfigMap', phase: 'started' });
    expect(mirror.keys('v1/ConfigMap')).toEqual([]);
  });
});
