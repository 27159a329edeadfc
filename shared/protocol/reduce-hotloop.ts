// Hot-loop detection: a key reconciled more than limits.hotLoopThreshold times within hotLoopWindowMs, most
// of them triggered by an event about an object the same controller had just written (typically its own
// status update coming back through the informer). The evidence is the cause and the write that produced it.
import type { ReconcileStartEvent } from './events-controller';
import type { Draft } from './reduce-draft';
import { notable } from './reduce-notable';
import type { ControllerView, HotLoop, KeyView } from './view';
import { lookup } from './records';
import { refKey } from './view';

type Stamped<E> = E & { seq: number; ts: number };

const MAX_HOT_LOOPS_PER_CONTROLLER = 50;

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
    spanMs,
    selfCount: selfN,
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
      `${c.name} ${k.key}: hot loop, ${n} reconciles in ${formatSeconds(spanMs)} (${selfN} re-triggered by its own writes)` +
        (w ? `, re-triggered by its own ${w.verb} of ${w.ref.gvk} ${refKey(w.ref)}` : ''),
      { controller: c.name, key: k.key },
    );
  }
  k.hotLoop = loop;
  c.hotLoops = [...c.hotLoops.filter((h) => h.key !== k.key), loop].slice(-MAX_HOT_LOOPS_PER_CONTROLLER);
}

/** "0.42 s", "9.8 s": the span the counts were taken over, as the headline states it. */
export function formatSeconds(ms: number): string {
  return `${ms < 10_000 ? Math.round(ms / 10) / 100 : Math.round(ms / 100) / 10} s`;
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
