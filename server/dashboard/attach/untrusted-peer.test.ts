// The bridge is a peer on the network: what it sends is checked and bounded (shared/protocol/bridge-limits),
// and each limit it passes is reported to the view, never silent.
import { afterEach, describe, expect, it } from 'vitest';
import { BRIDGE_LIMITS } from '../../../shared/protocol/bridge-limits';
import type { BridgeDroppedEvent } from '../../../shared/protocol/events-bridge';
import type { RuntimeEvent } from '../../../shared/protocol/events';
import { BridgeConnection } from './bridge-connection';
import { LineSplitter, parseEventLine } from './bridge-wire';
import { KeyMirror } from './key-mirror';
import { line, rawBridge } from './test-harness';

function collector() {
  const got: RuntimeEvent[] = [];
  return { got, probe: { enabled: true, emit: (e: RuntimeEvent) => void got.push(e) } };
}

/** Waits on the condition (polling; no deadline of its own beyond the test's timeout). */
async function until(pred: () => boolean): Promise<void> {
  while (!pred()) await new Promise((r) => setTimeout(r, 5));
}

const forget = (key: string): string => `"kind":"queue.forget","queue":"c","key":"${key}"`;
const keysOf = (got: RuntimeEvent[]): string[] => got.flatMap((e) => (e.kind === 'queue.forget' ? [e.key] : []));
const drops = (got: RuntimeEvent[], cause: string): BridgeDroppedEvent[] =>
  got.filter((e): e is BridgeDroppedEvent => e.kind === 'bridge.dropped' && e.cause === cause);
/** What was reported dropped for a cause so far (reports come in bursts, so the latest total). */
const dropped = (got: RuntimeEvent[], cause: string): number => drops(got, cause).at(-1)?.total ?? 0;

describe('LineSplitter', () => {
  const enc = new TextEncoder();

  it('drops a line over the cap whole, up to its newline, and keeps the next one', () => {
    const s = new LineSplitter(16);
    expect(s.push(enc.encode('{"a":1}\n' + 'x'.repeat(10)))).toEqual({ lines: ['{"a":1}'], oversized: 0 });
    expect(s.push(enc.encode('x'.repeat(10)))).toEqual({ lines: [], oversized: 1 });
    expect(s.push(enc.encode('x'.repeat(1000)))).toEqual({ lines: [], oversized: 0 });
    expect(s.push(enc.encode('xx\n{"b":2}\n'))).toEqual({ lines: ['{"b":2}'], oversized: 0 });
  });

  it('joins a multi-byte character split across chunks', () => {
    const s = new LineSplitter();
    const bytes = enc.encode('{"k":"é"}\n');
    expect(s.push(bytes.subarray(0, 7)).lines).toEqual([]);
    expect(s.push(bytes.subarray(7)).lines).toEqual(['{"k":"é"}']);
  });

  it('reads an 18 MB line in linear time: the partial line is not re-joined per chunk', () => {
    // 18 MB in 16 KB chunks: re-joining the partial line per chunk copied ~10 GB; kept as parts, each byte
    // is looked at once and the line is dropped at the cap.
    const s = new LineSplitter();
    const chunk = new Uint8Array(16 * 1024).fill(120);
    let oversized = 0;
    for (let sent = 0; sent < 18 * 1024 * 1024; sent += chunk.length) oversized += s.push(chunk).oversized;
    expect(oversized).toBe(1);
    // The newline ends the dropped line; the next line is whole.
    expect(s.push(enc.encode('\n{"after":1}\n'))).toEqual({ lines: ['{"after":1}'], oversized: 0 });
  });
});

describe('seq from the peer', () => {
  it('is a positive safe integer, or the line is no event', () => {
    for (const seq of ['1e300', '1.5', '-1', '0', '"3"', `${2 ** 53}`, 'null']) {
      expect(parseEventLine(line(seq, forget('a')).trim())).toBe('bad-seq');
    }
    expect(parseEventLine(line(3, forget('a')).trim())).toMatchObject({ seq: 3 });
  });
});

describe('BridgeConnection against a peer that breaks the rules', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });

  async function attach(stream: (after: number) => string, hello?: Record<string, unknown>) {
    const bridge = await rawBridge({ stream, ...(hello ? { hello } : {}) });
    const { got, probe } = collector();
    const conn = new BridgeConnection({ address: bridge.address, probe, retryMs: 10 });
    cleanups.push(
      () => conn.close(),
      () => bridge.close(),
    );
    conn.start();
    return { bridge, got, conn };
  }

  it('an event with seq 1e300 is dropped and reported; later events still arrive', async () => {
    const { got } = await attach(() => line(1, forget('a')) + line('1e300', forget('bogus')) + line(2, forget('b')));
    await until(() => keysOf(got).length === 2);
    expect(keysOf(got)).toEqual(['a', 'b']);
    await until(() => drops(got, 'seq').length === 1);
    expect(drops(got, 'seq')[0]).toMatchObject({ process: 'p', dropped: 1 });
  });

  it('a seq that jumps ahead and then goes back: resynced from the hello, nothing after it lost', async () => {
    const { got, bridge } = await attach(
      (after) =>
        after === 0
          ? line(1, forget('a')) + line(2 ** 50, forget('jump')) + line(2, forget('b')) + line(3, forget('c'))
          : [2, 3]
              .filter((s) => s > after)
              .map((s) => line(s, forget(String.fromCharCode(96 + s))))
              .join(''),
      { seq: 3 },
    );
    await until(() => keysOf(got).includes('c'));
    expect(keysOf(got)).toEqual(['a', 'jump', 'b', 'c']);
    expect(bridge.afters).toEqual([0, 1]);
    await until(() => dropped(got, 'seq') === 1 && dropped(got, 'gap') > 0);
  });

  it('a line over the byte cap is dropped with a note, and the stream goes on', async () => {
    const { got, bridge } = await attach(() => line(1, forget('a')));
    await until(() => keysOf(got).length === 1);
    bridge.write(`{"seq":2,"ts":0,"kind":"queue.forget","queue":"c","key":"${'x'.repeat(BRIDGE_LIMITS.lineBytes)}"}\n`);
    bridge.write(line(3, forget('c')));
    await until(() => keysOf(got).includes('c'));
    expect(keysOf(got)).toEqual(['a', 'c']);
    expect(drops(got, 'lineBytes')[0]).toMatchObject({ dropped: 1, cap: BRIDGE_LIMITS.lineBytes });
  });

  it('controllers and informers past their caps are dropped and reported', async () => {
    const n = BRIDGE_LIMITS.controllers + 10;
    const m = BRIDGE_LIMITS.informers + 5;
    let text = '';
    for (let i = 1; i <= n; i++) text += line(i, `"kind":"queue.forget","queue":"q${i}","key":"k"`);
    for (let i = 1; i <= m; i++) text += line(n + i, `"kind":"reflector.resync","informer":"i${i}"`);
    const { got, conn } = await attach(() => text);
    await until(() => dropped(got, 'controllers') === 11 && dropped(got, 'informers') === 5);
    // The hello's own controller counts against the cap: 'c' and 255 of the queues are kept.
    expect(got.filter((e) => e.kind === 'queue.forget')).toHaveLength(BRIDGE_LIMITS.controllers - 1);
    expect(got.filter((e) => e.kind === 'reflector.resync')).toHaveLength(BRIDGE_LIMITS.informers);
    expect(conn.controllers()).toEqual(['c']);
  });

  it('a hello with more controllers than the cap keeps the first ones and reports the rest', async () => {
    const controllers = Array.from({ length: BRIDGE_LIMITS.controllers + 3 }, (_, i) => `c${i}`);
    const { got, conn } = await attach(() => '', { controllers, steppable: controllers });
    await until(() => dropped(got, 'controllers') === 3);
    expect(conn.controllers()).toHaveLength(BRIDGE_LIMITS.controllers);
  });
});

describe('KeyMirror', () => {
  it('lists at most BRIDGE_LIMITS.keys keys per process and reports the rest', async () => {
    const { got, probe } = collector();
    const mirror = new KeyMirror(probe);
    mirror.emit({ kind: 'bridge.process', process: 'p', address: 'a:1', phase: 'connected' });
    const add = (name: string, op: 'add' | 'delete' = 'add') =>
      mirror.emit({
        kind: 'indexer.update',
        informer: 'v1/ConfigMap',
        op,
        key: `ns/${name}`,
        ref: { gvk: 'v1/ConfigMap', namespace: 'ns', name },
        size: 1,
      });
    for (let i = 0; i < BRIDGE_LIMITS.keys + 2; i++) add(`k${i}`);
    expect(mirror.keys('v1/ConfigMap')).toHaveLength(BRIDGE_LIMITS.keys);
    expect(drops(got, 'keys')[0]).toMatchObject({ process: 'p', cause: 'keys', cap: BRIDGE_LIMITS.keys });
    mirror.flushDrops();
    expect(dropped(got, 'keys')).toBe(2);
    // Every event still reaches the view.
    expect(got.filter((e) => e.kind === 'indexer.update')).toHaveLength(BRIDGE_LIMITS.keys + 2);
    add('k0', 'delete');
    add('late');
    expect(mirror.keys('v1/ConfigMap')).toContain('ns/late');
  });
});
