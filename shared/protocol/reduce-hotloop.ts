// Hot-loop detection: a key reconciled more than limits.hotLoopThreshold times within hotLoopWindowMs, most
// of them triggered by an event about an object the same controller had just written (typically its own
// status update coming back through the informer). The evidence is the cause and the write that produced it.
import type { ClientRequestEvent, ReconcileStartEvent } from './events-controller';
import type { EnqueueCause } from './events-workqueue';
import type { Draft } from './reduce-draft';
import { notable } from './reduce-notable';
import type { ControllerView, HotLoop, KeyView, WriteRecord } from './view';
import { dictOf, lookup } from './records';
import { refId, refKey } from './view';

type Stamped<E> = E & { seq: number; ts: number };

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deleteAllOf', 'updateStatus', 'patchStatus']);
const MAX_HOT_LOOPS_PER_CONTROLLER = 50;
/** Earlier writes remembered per object, to match an event to the exact write that produced it. */
const MAX_EARLIER_WRITES = 8;

/** Remembers a successful write so a later event about the same object can be traced back to it. */
export function recordWrite(d: Draft, c: ControllerView, ev: Stamped<ClientRequestEvent>): void {
  if (!WRITE_VERBS.has(ev.verb) || ev.cached) return;
  const key = attributeKey(c, refKey(ev.ref));
  const w: WriteRecord = { seq: ev.seq, ts: ev.ts, verb: ev.verb, ref: ev.ref };
  if (key !== undefined) w.key = key;
  if (ev.code !== undefined) w.code = ev.code;
  if (ev.error !== undefined) w.error = ev.error;
  const running = key !== undefined ? lookup(c.keys, key)?.lastReconcile : undefined;
  if (running && running.endTs === undefined && running.selfCaused) w.fromSelfCaused = true;
  const writes = d.childRecord(c, 'writes');
  const id = refId(ev.ref);
  const prev = writes[id];
  const isNew = prev === undefined;
  if (prev) {
    const rv = prev.error === undefined ? prev.ref.resourceVersion : undefined;
    const earlier =
      rv !== undefined
        ? [
            ...(prev.earlier ?? []),
            {
              seq: prev.seq,
              ts: prev.ts,
              verb: prev.verb,
              resourceVersion: rv,
              ...(prev.fromSelfCaused ? { fromSelfCaused: true } : {}),
            },
          ]
        : prev.earlier;
    if (earlier) w.earlier = earlier.slice(-MAX_EARLIER_WRITES);
  }
  writes[id] = w;
  if (isNew && Object.keys(writes).length > d.view.limits.maxWritesPerController)
    trimWrites(c, d.view.limits.maxWritesPerController);
  if (key === undefined) return;
  const k = lookup(c.keys, key);
  if (k?.lastReconcile && k.lastReconcile.endTs === undefined) {
    const owned = d.own(d.childRecord(c, 'keys')[key] as KeyView);
    d.childRecord(c, 'keys')[key] = owned;
    const rec = d.made({ ...k.lastReconcile, writes: k.lastReconcile.writes + 1 });
    const h = d.child(owned, 'history');
    const seq = k.lastReconcile.seq;
    const i = h.findLastIndex((r) => r.seq === seq);
    if (i >= 0) h[i] = rec;
    owned.lastReconcile = rec;
  }
}

/** The reconcile a write belongs to: the worker reconciling the written object's key, else the only busy one. */
function attributeKey(c: ControllerView, objectKey: string): string | undefined {
  let only: string | undefined;
  let busy = 0;
  for (const w of Object.values(c.workerStates)) {
    if (w.key === undefined) continue;
    if (w.key === objectKey) return w.key;
    only = w.key;
    busy++;
  }
  return busy === 1 ? only : undefined;
}

/**
 * The write that produced an event carrying resourceVersion rv: the latest write when it wrote rv (or when
 * versions are unknown), else the earlier write that did; the latest when none matches.
 */
function exactWrite(w: WriteRecord | undefined, rv: string | undefined): WriteRecord | undefined {
  if (!w || rv === undefined || w.ref.resourceVersion === undefined || w.ref.resourceVersion === rv) return w;
  const e = w.earlier?.find((x) => x.resourceVersion === rv);
  if (!e) return w;
  const { earlier: _earlier, code: _code, fromSelfCaused: _self, ...rest } = w;
  return {
    ...rest,
    seq: e.seq,
    ts: e.ts,
    verb: e.verb,
    ref: { ...w.ref, resourceVersion: rv },
    ...(e.fromSelfCaused ? { fromSelfCaused: true } : {}),
  };
}

/** The first cause that is an event about an object this controller wrote within the window before ts. */
export function findSelfCause(
  c: ControllerView,
  causes: EnqueueCause[],
  ts: number,
  windowMs: number,
): { cause: EnqueueCause; write: WriteRecord } | undefined {
  for (const cause of causes) {
    if (!cause.source || cause.eventType === undefined) continue;
    const w = exactWrite(lookup(c.writes, refId(cause.source)), cause.source.resourceVersion);
    if (w && w.error === undefined && w.ts <= ts && w.ts >= ts - windowMs) return { cause, write: w };
  }
  return undefined;
}

export function evaluateHotLoop(d: Draft, c: ControllerView, k: KeyView, ev: Stamped<ReconcileStartEvent>): void {
  const { hotLoopThreshold, hotLoopWindowMs, hotLoopSelfRatio, maxHotLoopEvidence } = d.view.limits;
  const since = ev.ts - hotLoopWindowMs;
  const recent = k.recent.filter((r) => r.ts > since);
  const rec = k.lastReconcile;
  recent.push({ ts: ev.ts, self: (rec?.selfCaused ?? false) && (rec?.selfCause?.write.fromSelfCaused ?? false) });
  // Only threshold+1 entries are needed to decide; keep a few more so the ratio is not a coin flip.
  k.recent = recent.slice(-(hotLoopThreshold * 2 + 1));
  const n = k.recent.length;
  const selfN = k.recent.filter((r) => r.self).length;
  const looping = n > hotLoopThreshold && selfN / n >= hotLoopSelfRatio;
  if (!looping) {
    if (k.hotLoop) {
      delete k.hotLoop;
      c.hotLoops = c.hotLoops.filter((h) => h.key !== k.key);
      notable(d, ev, 'info', `${c.name} ${k.key}: hot loop ended`, { controller: c.name, key: k.key });
    }
    return;
  }
  const evidence = k.history
    .filter((r) => r.selfCause !== undefined)
    .slice(-maxHotLoopEvidence)
    .map((r) => ({
      seq: r.seq,
      ts: r.startTs,
      cause: (r.selfCause as NonNullable<typeof r.selfCause>).cause,
      write: (r.selfCause as NonNullable<typeof r.selfCause>).write,
    }));
  const first = k.recent[0] as { ts: number };
  const spanMs = Math.max(ev.ts - first.ts, 1);
  const loop: HotLoop = {
    controller: c.name,
    key: k.key,
    detectedAt: k.hotLoop?.detectedAt ?? ev.ts,
    lastTs: ev.ts,
    reconcilesInWindow: n,
    windowMs: hotLoopWindowMs,
    selfRatio: Math.round((selfN / n) * 100) / 100,
    rate: Math.round(((n - 1) / (spanMs / 1000)) * 100) / 100,
    evidence,
  };
  if (!k.hotLoop) {
    const w = evidence[evidence.length - 1]?.write;
    notable(
      d,
      ev,
      'warn',
      `${c.name} ${k.key}: hot loop, ${n} reconciles in ${hotLoopWindowMs / 1000}s` +
        (w ? `, re-triggered by its own ${w.verb} of ${w.ref.gvk} ${refKey(w.ref)}` : ''),
      { controller: c.name, key: k.key },
    );
  }
  k.hotLoop = loop;
  c.hotLoops = [...c.hotLoops.filter((h) => h.key !== k.key), loop].slice(-MAX_HOT_LOOPS_PER_CONTROLLER);
}

/**
 * Drops hot loops whose key has gone quiet for a whole window. Runs on the controller's own reconcile events
 * (never on batch boundaries) so the result does not depend on how events were batched.
 */
export function expireHotLoops(d: Draft, c: ControllerView, now: number): void {
  if (!c.hotLoops.some((h) => h.lastTs < now - h.windowMs)) return;
  const keys = d.childRecord(c, 'keys');
  for (const h of c.hotLoops) {
    if (h.lastTs >= now - h.windowMs) continue;
    const k = lookup(keys, h.key);
    if (!k?.hotLoop) continue;
    const ok = d.own(k);
    delete ok.hotLoop;
    keys[h.key] = ok;
  }
  c.hotLoops = c.hotLoops.filter((h) => h.lastTs >= now - h.windowMs);
}

/** Keeps the newest 80% of the cap, so trimming runs once per many writes. c must be writable. */
function trimWrites(c: ControllerView, cap: number): void {
  const entries = Object.entries(c.writes).sort((a, b) => b[1].ts - a[1].ts || b[1].seq - a[1].seq);
  c.writes = dictOf(entries.slice(0, Math.floor(cap * 0.8)));
}
