// A new run of an attached process: the old run died, and with it its queues. Nothing the old run had
// queued, waiting or in flight will be processed (the new run starts with empty queues and lists again),
// so its controllers' keys are shown idle, a reconcile it was running is marked interrupted, and its
// workers free. Left as they were, the view would say "processing" of a key nothing processes.
import type { Draft } from './reduce-draft';
import { lookup } from './records';
import type { ControllerView, KeyView, ReconcileRecord } from './view';

export function forgetOldRun(d: Draft, process: string, ts: number): void {
  const controllers = d.childRecord(d.view, 'controllers');
  for (const name of Object.keys(controllers)) {
    const c = lookup(controllers, name);
    if (!c || c.process !== process) continue;
    const o = d.own(c);
    controllers[name] = o;
    resetController(d, o, ts);
  }
}

function resetController(d: Draft, c: ControllerView, ts: number): void {
  c.depth = { ready: 0, waiting: 0, processing: 0 };
  c.activeWorkers = 0;
  const workers = d.childRecord(c, 'workerStates');
  for (const w of Object.keys(workers)) workers[w] = { worker: Number(w), since: ts };
  delete c.pendingAttributions;
  const keys = d.childRecord(c, 'keys');
  for (const key of Object.keys(keys)) {
    const k = lookup(keys, key);
    if (!k || (k.state === 'idle' && !k.dirty && k.lastReconcile?.endTs !== undefined)) continue;
    keys[key] = settledKey(d, k, ts);
  }
}

function settledKey(d: Draft, k: KeyView, ts: number): KeyView {
  const o = d.own(k);
  if (o.state !== 'idle') {
    o.state = 'idle';
    o.stateSince = ts;
  }
  o.dirty = false;
  delete o.nextRetryAt;
  o.pendingCauses = [];
  o.pendingCausesDropped = 0;
  const last = o.lastReconcile;
  if (last && last.endTs === undefined) {
    const rec: ReconcileRecord = d.made({ ...last, endTs: ts, interrupted: true });
    o.lastReconcile = rec;
    const h = d.child(o, 'history');
    const i = h.findLastIndex((r) => r.seq === last.seq);
    if (i >= 0) h[i] = rec;
  }
  return o;
}
