// Synthetic stamped events for tests of the reducer, recorder, transport and UI: the shapes the runtime
// emits, without needing the runtime. Builders follow the order client-go and controller-runtime produce.
import type { RuntimeEvent, StampedEvent } from '../events';
import type { EnqueueCause, QueueDepth } from '../events-workqueue';
import type { ReconcileOutcome } from '../events-controller';
import type { ObjectRef } from '../ids';

export class EventScript {
  readonly events: StampedEvent[] = [];
  seq: number;
  ts: number;

  constructor(opts: { seq?: number; ts?: number } = {}) {
    this.seq = opts.seq ?? 0;
    this.ts = opts.ts ?? Date.UTC(2026, 0, 1);
  }

  advance(ms: number): this {
    this.ts += ms;
    return this;
  }

  emit(ev: RuntimeEvent): StampedEvent {
    const s = { ...ev, seq: ++this.seq, ts: this.ts } as StampedEvent;
    this.events.push(s);
    return s;
  }

  /** Events emitted since index `from`. */
  since(from: number): StampedEvent[] {
    return this.events.slice(from);
  }

  /** A reflector's first list and watch: listBegin, n Added deltas and indexer adds, listEnd, synced, watchStart. */
  informerStartup(informer: string, gvk: string, n: number, namespace = 'default'): void {
    this.emit({ kind: 'informer.lifecycle', informer, phase: 'started', fifo: 'DeltaFIFO' });
    this.emit({ kind: 'reflector.state', informer, from: 'idle', to: 'listing', reason: 'initial' });
    this.emit({ kind: 'reflector.listBegin', informer, resourceVersion: '0', relist: false, cause: 'initial' });
    for (let i = 0; i < n; i++) {
      const ref: ObjectRef = { gvk, namespace, name: `obj-${i}`, resourceVersion: String(100 + i) };
      this.emit({
        kind: 'fifo.delta',
        informer,
        delta: 'Replaced',
        key: `${namespace}/obj-${i}`,
        ref,
        pendingForKey: 1,
        queueLength: i + 1,
      });
    }
    this.advance(5);
    this.emit({
      kind: 'reflector.listEnd',
      informer,
      resourceVersion: '200',
      items: n,
      pages: 1,
      durationMs: 5,
      relist: false,
    });
    for (let i = 0; i < n; i++) {
      const key = `${namespace}/obj-${i}`;
      const ref: ObjectRef = { gvk, namespace, name: `obj-${i}`, resourceVersion: String(100 + i) };
      this.emit({ kind: 'fifo.pop', informer, key, deltas: ['Replaced'], queueLength: n - i - 1, durationMs: 0 });
      this.emit({ kind: 'indexer.update', informer, op: 'add', key, ref, size: i + 1 });
    }
    this.emit({ kind: 'informer.synced', informer, items: n, durationMs: 5 });
    this.emit({ kind: 'reflector.state', informer, from: 'listing', to: 'watching', reason: 'listed' });
    this.emit({ kind: 'reflector.watchStart', informer, resourceVersion: '200', timeoutSeconds: 300 });
  }

  /**
   * One key's trip through a controller: add (with cause), get, reconcile start/end, done, and forget or a
   * rate-limited re-add depending on the outcome. Depth figures assume this is the only key in flight.
   */
  reconcileCycle(
    controller: string,
    key: string,
    opts: {
      cause?: EnqueueCause;
      extraCauses?: EnqueueCause[];
      outcome?: ReconcileOutcome;
      durationMs?: number;
      worker?: number;
      attempt?: number;
      error?: string;
      /** Writes made during the reconcile (e.g. its own status update). */
      writes?: { verb: 'update' | 'updateStatus' | 'patch' | 'create'; ref: ObjectRef }[];
    } = {},
  ): void {
    const cause = opts.cause ?? { type: 'event', eventType: 'update' };
    const worker = opts.worker ?? 0;
    const outcome = opts.outcome ?? 'success';
    const durationMs = opts.durationMs ?? 20;
    const d = (ready: number, processing: number, waiting = 0): QueueDepth => ({ ready, waiting, processing });
    this.emit({
      kind: 'queue.add',
      queue: controller,
      key,
      cause,
      queued: true,
      dirtyWhileProcessing: false,
      depth: d(1, 0),
    });
    for (const extra of opts.extraCauses ?? []) {
      this.emit({
        kind: 'queue.add',
        queue: controller,
        key,
        cause: extra,
        queued: false,
        dirtyWhileProcessing: false,
        depth: d(1, 0),
      });
    }
    this.advance(1);
    this.emit({ kind: 'queue.get', queue: controller, key, waitMs: 1, depth: d(0, 1) });
    this.emit({
      kind: 'reconcile.start',
      controller,
      key,
      worker,
      causes: [cause, ...(opts.extraCauses ?? [])],
      attempt: opts.attempt ?? 1,
    });
    for (const w of opts.writes ?? []) {
      this.advance(1);
      this.emit({
        kind: 'client.request',
        controller,
        verb: w.verb,
        ref: w.ref,
        cached: false,
        durationMs: 1,
        code: 200,
      });
    }
    this.advance(durationMs);
    this.emit({
      kind: 'reconcile.end',
      controller,
      key,
      worker,
      durationMs,
      outcome,
      ...(opts.error ? { error: opts.error } : {}),
    });
    this.emit({
      kind: 'queue.done',
      queue: controller,
      key,
      processingMs: durationMs,
      requeued: false,
      depth: d(0, 0),
    });
    if (outcome === 'error') {
      const requeues = opts.attempt ?? 1;
      const delayMs = 5 * 2 ** (requeues - 1);
      this.emit({
        kind: 'queue.addAfter',
        queue: controller,
        key,
        cause: { type: 'errorBackoff', detail: opts.error ?? 'error' },
        delayMs,
        readyAt: this.ts + delayMs,
        requeues,
        depth: d(0, 0, 1),
      });
    } else {
      this.emit({ kind: 'queue.forget', queue: controller, key });
    }
  }
}
