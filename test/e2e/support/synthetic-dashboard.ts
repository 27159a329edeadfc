// The real dashboard transport (startDashboard + Recorder) fed by the synthetic runtime, for the end-to-end
// test while the composition root (server/main.ts) does not exist. Everything from the recorder onwards is
// the shipped code; only the event source is simulated. No command ports are wired, so commands are refused
// by the transport with its own message (the UI must show it).
import type { RuntimeEvent } from '../../../shared/protocol/events';
import { Recorder } from '../../../server/dashboard/recorder/recorder';
import { startDashboard } from '../../../server/dashboard/transport/dashboard-server';
import { SyntheticRuntime } from '../../../web/fixtures/synthetic-runtime';

export interface SyntheticDashboard {
  url: string;
  close(): Promise<void>;
}

export async function startSyntheticDashboard(opts: {
  staticDir: string;
  tickMs?: number;
  port?: number;
}): Promise<SyntheticDashboard> {
  // Small ticks, so the recorder's wall-clock stamps stay close to the simulated times.
  const tickMs = opts.tickMs ?? 20;
  const sim = new SyntheticRuntime({ start: Date.now() });
  const recorder = new Recorder({
    objectSource: {
      get: (gvk, namespace, name) => (gvk === 'v1/Pod' ? sim.pod(namespace, name) : undefined),
      keys: (gvk) => (gvk === 'v1/Pod' ? sim.podKeys() : []),
    },
  });
  const dash = await startDashboard({
    recorder,
    port: opts.port ?? 0,
    staticDir: opts.staticDir,
    cluster: { kind: 'sandbox', name: 'synthetic events', writable: true },
    controllers: ['pod-counter', 'flaky', 'hot-loop'],
    log: () => {},
  });
  const timer = setInterval(() => {
    // The recorder stamps its own seq and time; the simulation's are dropped.
    // Follow the wall clock (timers fire late), so times the events carry (readyAt) match the recorder's.
    for (const { seq: _seq, ts: _ts, ...ev } of sim.advance(Math.max(0, Date.now() - sim.time))) {
      recorder.emit(ev as RuntimeEvent);
    }
  }, tickMs);
  return {
    url: dash.url,
    close: async () => {
      clearInterval(timer);
      await dash.close();
    },
  };
}
