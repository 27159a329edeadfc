// Helpers for transport tests: a dashboard on an ephemeral loopback port fed with synthetic events, and typed
// socket.io clients. Used by the transport and replay integration suites.
import { io as connect } from 'socket.io-client';
import type { Socket as ClientSocket, ManagerOptions, SocketOptions } from 'socket.io-client';
import type { RuntimeEvent, StampedEvent } from '../../../shared/protocol/events';
import type { ClientToServerEvents, HelloResult, ServerToClientEvents } from '../../../shared/protocol/socket';
import { PROTOCOL_VERSION } from '../../../shared/protocol/version';
import { Recorder } from '../recorder/recorder';
import type { RecorderOptions } from '../recorder/recorder';
import { startDashboard } from './dashboard-server';
import type { DashboardOptions, DashboardServer } from './dashboard-server';

export type TestClient = ClientSocket<ServerToClientEvents, ClientToServerEvents>;

export async function startTestDashboard(
  opts: Partial<DashboardOptions> & { recorderOptions?: RecorderOptions } = {},
): Promise<{ dash: DashboardServer; recorder: Recorder }> {
  const recorder = opts.recorder ?? new Recorder({ flushIntervalMs: 20, ...opts.recorderOptions });
  const dash = await startDashboard({ port: 0, log: () => {}, staticDir: '/nonexistent', ...opts, recorder });
  return { dash, recorder };
}

export function client(dash: DashboardServer, opts: Partial<ManagerOptions & SocketOptions> = {}): TestClient {
  return connect(dash.url, { transports: ['websocket'], forceNew: true, reconnection: false, ...opts });
}

export function connected(socket: TestClient): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.connected) return resolve();
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => reject(err));
  });
}

export function connectError(socket: TestClient): Promise<Error> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('connected, expected a refusal')));
    socket.once('connect_error', (err) => resolve(err));
  });
}

export async function hello(
  socket: TestClient,
  req: Partial<Parameters<ClientToServerEvents['hello']>[0]> = {},
): Promise<HelloResult> {
  await connected(socket);
  return socket.emitWithAck('hello', { protocolVersion: PROTOCOL_VERSION, ...req });
}

/** Strips stamps so events can go through recorder.emit again. */
export function unstamped(events: StampedEvent[]): RuntimeEvent[] {
  return events.map(({ seq: _seq, ts: _ts, ...ev }) => ev as RuntimeEvent);
}

/** Resolves once pred holds, re-checking on every event the socket receives (no timers). */
export function until(socket: TestClient, pred: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    if (pred()) return resolve();
    // Any-listeners run before the event's own handlers: look once those have run.
    const check = (): void =>
      queueMicrotask(() => {
        if (!pred()) return;
        socket.offAny(check);
        resolve();
      });
    socket.onAny(check);
  });
}
