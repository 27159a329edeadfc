// The application-level handshake against a scripted socket: snapshot on first hello, in-order batches,
// resume from (epoch, seq) after a gap or reconnect, a fresh snapshot after a server restart, and the
// version-mismatch stop. No network: the socket is a fake with explicit delivery.
import { describe, expect, it, vi } from 'vitest';
import type { StampedEvent } from '../../shared/protocol/events';
import type { EventBatch, HelloRequest, HelloResult, ServerInfo, ServerStatus } from '../../shared/protocol/socket';
import { PROTOCOL_VERSION } from '../../shared/protocol/version';
import { createView } from '../../shared/protocol/view';
import { recordedSession } from '../fixtures/recorded-view';
import { Connection, tokenFromPage } from './connection';
import type { DashboardSocket } from './connection';
import { RuntimeStore } from './runtime-store';

type Handler = (...args: unknown[]) => void;

class FakeSocket {
  connected = false;
  handlers = new Map<string, Handler[]>();
  hellos: HelloRequest[] = [];
  subscriptions: unknown[] = [];
  answer: (req: HelloRequest) => HelloResult = () => ({ type: 'error', error: 'no script' });
  /** When set, hello answers wait here until the test delivers them. */
  held: (() => void)[] | undefined;
  on(ev: string, fn: Handler) {
    this.handlers.set(ev, [...(this.handlers.get(ev) ?? []), fn]);
    return this;
  }
  fire(ev: string, ...args: unknown[]) {
    for (const fn of this.handlers.get(ev) ?? []) fn(...args);
  }
  connect() {
    this.connected = true;
    this.fire('connect');
    return this;
  }
  disconnect() {
    this.connected = false;
    this.fire('disconnect', 'io client disconnect');
    return this;
  }
  timeout() {
    return {
      emit: (ev: string, payload: unknown, cb: (err: Error | null, res: unknown) => void) => {
        if (ev === 'hello') {
          this.hellos.push(payload as HelloRequest);
          const res = this.answer(payload as HelloRequest);
          if (this.held) this.held.push(() => cb(null, res));
          else cb(null, res);
        } else if (ev === 'subscribe') {
          this.subscriptions.push(payload);
          cb(null, { ok: true, result: { seq: 0 } });
        } else cb(null, { ok: false, error: `${ev} refused by the fake`, code: 'unsupported' });
      },
    };
  }
}

const status: ServerStatus = { recording: { paused: false, evicted: 0 }, steppers: {}, faults: [] };
const info = (epoch: string): ServerInfo => ({
  protocolVersion: PROTOCOL_VERSION,
  serverEpoch: epoch,
  mode: 'live',
  cluster: { kind: 'sandbox', writable: true },
  controllers: [],
  startedAt: 0,
  capabilities: { step: true, requeue: true, faults: true, workload: true, replay: false, recording: true },
});

function setup() {
  const socket = new FakeSocket();
  const store = new RuntimeStore();
  const conn = new Connection({ store, connect: () => socket as unknown as DashboardSocket, now: () => 1000 });
  return { socket, store, conn };
}

const events: StampedEvent[] = recordedSession().events;
const batch = (epoch: string, from: number, to: number): EventBatch => ({
  serverEpoch: epoch,
  prevSeq: from,
  seq: to,
  events: events.slice(from, to),
});

describe('Connection', () => {
  it('starts from a snapshot, then applies batches in order', () => {
    const { socket, store, conn } = setup();
    socket.answer = () => ({ type: 'snapshot', server: info('A'), status, seq: 0, view: createView() });
    conn.start();
    expect(socket.hellos).toEqual([{ protocolVersion: PROTOCOL_VERSION }]);
    expect(store.getState().status).toEqual({ state: 'live' });
    socket.fire('batch', batch('A', 0, 100));
    socket.fire('batch', batch('A', 100, 150));
    expect(store.getState().view.lastSeq).toBe(150);
  });

  it('resumes from its epoch and last seq when a batch skips ahead', () => {
    const { socket, store, conn } = setup();
    socket.answer = () => ({ type: 'snapshot', server: info('A'), status, seq: 0, view: createView() });
    conn.start();
    socket.fire('batch', batch('A', 0, 100));
    socket.answer = (req) => ({
      type: 'replay',
      server: info('A'),
      status,
      prevSeq: req.resume?.lastSeq ?? 0,
      seq: 300,
      events: events.slice(req.resume?.lastSeq ?? 0, 300),
    });
    socket.fire('batch', batch('A', 200, 300)); // 101..200 never arrived
    expect(socket.hellos[1]).toEqual({ protocolVersion: PROTOCOL_VERSION, resume: { serverEpoch: 'A', lastSeq: 100 } });
    expect(store.getState().view.lastSeq).toBe(300);
    expect(store.getState().view.eventCount).toBe(300);
    socket.fire('batch', batch('A', 300, 320));
    expect(store.getState().view.lastSeq).toBe(320);
  });

  it('takes a fresh snapshot when the server restarted (new epoch)', () => {
    const { socket, store, conn } = setup();
    socket.answer = () => ({ type: 'snapshot', server: info('A'), status, seq: 0, view: createView() });
    conn.start();
    socket.fire('batch', batch('A', 0, 100));
    socket.answer = () => ({ type: 'snapshot', server: info('B'), status, seq: 0, view: createView() });
    socket.fire('batch', batch('B', 0, 10));
    expect(socket.hellos).toHaveLength(2);
    expect(store.getState().server?.serverEpoch).toBe('B');
    expect(store.getState().view.lastSeq).toBe(0);
    expect(store.getState().snapshots).toBe(2);
  });

  it('resumes after a dropped connection and shows the outage meanwhile', () => {
    const { socket, store, conn } = setup();
    socket.answer = () => ({ type: 'snapshot', server: info('A'), status, seq: 0, view: createView() });
    conn.start();
    socket.fire('batch', batch('A', 0, 50));
    socket.connected = false;
    socket.fire('disconnect', 'transport close');
    expect(store.getState().status).toMatchObject({ state: 'disconnected', error: 'transport close' });
    socket.answer = (req) => ({
      type: 'replay',
      server: info('A'),
      status,
      prevSeq: 50,
      seq: 60,
      events: events.slice(req.resume?.lastSeq, 60),
    });
    socket.connect();
    expect(socket.hellos[1]?.resume).toEqual({ serverEpoch: 'A', lastSeq: 50 });
    expect(store.getState().status).toEqual({ state: 'live' });
    expect(store.getState().view.lastSeq).toBe(60);
  });

  it('stops and reports a protocol mismatch instead of reconnecting', () => {
    const { socket, store, conn } = setup();
    socket.answer = () => ({
      type: 'incompatible',
      serverProtocolVersion: PROTOCOL_VERSION + 1,
      error: 'Reload the page.',
    });
    conn.start();
    expect(store.getState().status).toEqual({
      state: 'incompatible',
      serverVersion: PROTOCOL_VERSION + 1,
      clientVersion: PROTOCOL_VERSION,
      message: 'Reload the page.',
    });
    expect(socket.connected).toBe(false);
    expect(conn.canSend()).toBe(false);
  });

  it('shows a replay session as a replay', () => {
    const { socket, store, conn } = setup();
    socket.answer = () => ({
      type: 'snapshot',
      server: { ...info('R'), mode: 'replay', cluster: { kind: 'replay', name: 'incident.jsonl', writable: false } },
      status,
      seq: 0,
      view: createView(),
    });
    conn.start();
    expect(store.getState().status).toEqual({ state: 'replaying', source: 'incident.jsonl' });
  });

  it('passes command refusals through verbatim, and refuses locally when offline', async () => {
    const { socket, conn } = setup();
    socket.answer = () => ({ type: 'snapshot', server: info('A'), status, seq: 0, view: createView() });
    expect(await conn.command({ type: 'workload.stop' })).toMatchObject({
      ok: false,
      error: expect.stringContaining('Not connected'),
    });
    conn.start();
    expect(await conn.command({ type: 'workload.stop' })).toEqual({
      ok: false,
      error: 'command refused by the fake',
      code: 'unsupported',
    });
  });

  it('subscribes now and re-sends the subscription with every later hello', async () => {
    const { socket, store, conn } = setup();
    socket.answer = () => ({ type: 'snapshot', server: info('A'), status, seq: 0, view: createView() });
    conn.start();
    expect(await conn.subscribe({ namespaces: ['team-a'] })).toEqual({ ok: true, result: { seq: 0 } });
    expect(socket.subscriptions).toEqual([{ namespaces: ['team-a'] }]);
    expect(store.getState().subscription).toEqual({ namespaces: ['team-a'] });
    socket.connected = false;
    socket.fire('disconnect', 'transport close');
    socket.connect();
    expect(socket.hellos[1]?.subscription).toEqual({ namespaces: ['team-a'] });
  });

  it('asks again when the server cannot answer hello yet', () => {
    vi.useFakeTimers();
    try {
      const { socket, store, conn } = setup();
      socket.answer = () => ({ type: 'error', error: 'caches not started' });
      conn.start();
      expect(store.getState().status).toMatchObject({ state: 'disconnected', error: 'caches not started' });
      socket.answer = () => ({ type: 'snapshot', server: info('A'), status, seq: 0, view: createView() });
      vi.advanceTimersByTime(2000);
      expect(socket.hellos).toHaveLength(2);
      expect(store.getState().status).toEqual({ state: 'live' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('ignores the answer to a hello sent on a connection that has since dropped', () => {
    const { socket, store, conn } = setup();
    socket.held = [];
    socket.answer = () => ({ type: 'snapshot', server: info('OLD'), status, seq: 0, view: createView() });
    conn.start();
    socket.connected = false;
    socket.fire('disconnect', 'transport close');
    socket.answer = () => ({ type: 'snapshot', server: info('NEW'), status, seq: 0, view: createView() });
    socket.connect();
    expect(socket.hellos).toHaveLength(2);
    const [stale, fresh] = socket.held;
    fresh?.();
    stale?.();
    expect(store.getState().server?.serverEpoch).toBe('NEW');
    expect(store.getState().status).toEqual({ state: 'live' });
  });
});

describe('tokenFromPage', () => {
  function page(href: string) {
    const stored = new Map<string, string>();
    const replaced: string[] = [];
    return {
      replaced,
      stored,
      location: { href },
      history: { state: { s: 1 }, replaceState: (_s: unknown, _u: string, url: string) => void replaced.push(url) },
      sessionStorage: {
        getItem: (k: string) => stored.get(k) ?? null,
        setItem: (k: string, v: string) => void stored.set(k, v),
      },
    };
  }

  it('takes the token out of the address bar, keeping the rest of the URL', () => {
    const p = page('http://10.0.0.5:7070/?token=s3cret&x=1#/workqueue?controller=flaky');
    expect(tokenFromPage(p)).toBe('s3cret');
    expect(p.replaced).toEqual(['/?x=1#/workqueue?controller=flaky']);
    expect(p.stored.get('controller-scope-token')).toBe('s3cret');
    // A reload (token gone from the URL) finds it in session storage.
    const reload = { ...page('http://10.0.0.5:7070/#/'), sessionStorage: p.sessionStorage };
    expect(tokenFromPage(reload)).toBe('s3cret');
    expect(reload.replaced).toEqual([]);
  });

  it('leaves a URL without a token alone', () => {
    const p = page('http://127.0.0.1:7070/#/');
    expect(tokenFromPage(p)).toBeUndefined();
    expect(p.replaced).toEqual([]);
  });
});
