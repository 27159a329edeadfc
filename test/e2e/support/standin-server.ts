// A stand-in dashboard server for the end-to-end test while the real composition root is not there: serves
// the built web app and speaks the socket protocol (hello/snapshot, batches, inspect, commands) over events
// from the synthetic runtime, reduced with the same shared reducer. Test support only — never shipped.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { Server } from 'socket.io';
import type { Ack, CommandResult, StepState } from '../../../shared/protocol/commands';
import type { StampedEvent } from '../../../shared/protocol/events';
import { reduce } from '../../../shared/protocol/reduce';
import type {
  ClientToServerEvents,
  InspectResult,
  ServerInfo,
  ServerStatus,
  ServerToClientEvents,
} from '../../../shared/protocol/socket';
import { PROTOCOL_VERSION } from '../../../shared/protocol/version';
import { createView } from '../../../shared/protocol/view';
import type { RuntimeView } from '../../../shared/protocol/view';
import { SyntheticRuntime } from '../../../web/fixtures/synthetic-runtime';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

export interface StandIn {
  url: string;
  close(): Promise<void>;
}

export async function startStandIn(opts: { webRoot: string; tickMs?: number }): Promise<StandIn> {
  const tickMs = opts.tickMs ?? 100;
  const sim = new SyntheticRuntime({ start: Date.now() });
  let view: RuntimeView = createView();
  let seq = 0;
  const recent: StampedEvent[] = [];
  const status: ServerStatus = { recording: { paused: false, evicted: 0 }, steppers: {}, faults: [] };
  const server: ServerInfo = {
    protocolVersion: PROTOCOL_VERSION,
    serverEpoch: `standin-${Date.now().toString(36)}`,
    mode: 'live',
    cluster: { kind: 'sandbox', name: 'synthetic', writable: true },
    controllers: ['pod-counter', 'flaky', 'hot-loop'],
    startedAt: Date.now(),
    capabilities: {
      step: true,
      requeue: true,
      faults: true,
      workload: true,
      replay: false,
      recording: true,
      workloadProfiles: ['steady', 'burst'],
    },
  };

  const http = createServer((req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/'));
    let file = join(opts.webRoot, path === '/' ? 'index.html' : path);
    if (!file.startsWith(opts.webRoot) || !existsSync(file)) file = join(opts.webRoot, 'index.html');
    res.setHeader('content-type', MIME[extname(file)] ?? 'application/octet-stream');
    res.end(readFileSync(file));
  });
  const io = new Server<ClientToServerEvents, ServerToClientEvents>(http);

  const timer = setInterval(() => {
    const raw = sim.advance(tickMs);
    if (raw.length === 0) return;
    // The simulation started at the server's start and advances in step with the wall clock, so its seqs
    // and timestamps are used as they are.
    const prevSeq = seq;
    const events: StampedEvent[] = raw;
    seq = (raw[raw.length - 1] as StampedEvent).seq;
    view = reduce(view, events);
    recent.push(...events);
    if (recent.length > 5000) recent.splice(0, recent.length - 5000);
    io.emit('batch', { serverEpoch: server.serverEpoch, prevSeq, seq, events });
  }, tickMs);

  const step = (controller: string, holding: boolean): StepState => {
    const s: StepState = { controller, holding, held: 0, breakpoints: { keys: [], onError: false } };
    status.steppers[controller] = s;
    return s;
  };

  io.on('connection', (socket) => {
    socket.on('hello', (req, ack) => {
      if (req.protocolVersion !== PROTOCOL_VERSION) {
        ack({ type: 'incompatible', serverProtocolVersion: PROTOCOL_VERSION, error: 'Reload the page.' });
        return;
      }
      ack({ type: 'snapshot', server, status, seq, view });
    });
    socket.on('subscribe', (_sub, ack) => ack({ ok: true, result: { seq } }));
    socket.on('inspect', (req, ack: (r: Ack<InspectResult>) => void) => {
      if (req.target === 'cache') {
        const keys = Object.keys(view.controllers['pod-counter']?.keys ?? {}).sort();
        ack({
          ok: true,
          result: {
            target: 'cache',
            informer: req.informer,
            keys: keys.slice(0, req.limit ?? 500),
            total: keys.length,
          },
        });
        return;
      }
      if (req.target === 'object') {
        const { namespace, name } = req.object;
        const object = {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name, namespace, resourceVersion: String(view.lastSeq), labels: { app: 'web' } },
          spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] },
          status: { phase: 'Running' },
        };
        ack({
          ok: true,
          result: {
            target: 'object',
            object,
            versions: [
              { resourceVersion: '1001', ts: Date.now() - 5000, diff: [{ op: 'add', path: '', value: {} }] },
              {
                resourceVersion: '1042',
                ts: Date.now() - 2000,
                diff: [{ op: 'replace', path: '/status/phase', old: 'Pending', value: 'Running' }],
              },
            ],
          },
        });
        return;
      }
      ack({ ok: false, error: 'not supported by the stand-in server', code: 'unsupported' });
    });
    socket.on('command', (cmd, ack: (r: Ack<CommandResult>) => void) => {
      switch (cmd.type) {
        case 'step.hold':
          return ack({ ok: true, result: step(cmd.controller, true) });
        case 'step.next':
        case 'step.resume':
        case 'step.breakpoint':
          return ack({ ok: true, result: step(cmd.controller, cmd.type !== 'step.resume') });
        case 'fault.inject': {
          const id = `f${status.faults.length + 1}`;
          status.faults.push({ id, description: `${cmd.fault.kind} on ${cmd.fault.resource ?? 'all resources'}` });
          socket.emit('status', status);
          return ack({ ok: true, result: { id } });
        }
        case 'fault.clear': {
          const n = status.faults.length;
          status.faults = [];
          socket.emit('status', status);
          return ack({ ok: true, result: { cleared: n } });
        }
        default:
          return ack({ ok: false, error: `${cmd.type} is not supported by the stand-in server`, code: 'unsupported' });
      }
    });
  });

  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      clearInterval(timer);
      await io.close();
    },
  };
}
