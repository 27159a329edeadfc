// Turns the probe stream into span descriptions, after the fact and with the events' own timestamps: a
// reconcile span per reconcile, a queue-wait span (its child) from the first enqueue since the key's last
// start to this start, and a span per client write. Links carry causation: a reconcile links to the write
// behind each watch event that woke it (by the ids derived from the event's uid and resourceVersion, so the
// write may be in any process), to the previous reconcile of the key for a retry, and to its own writes; a
// write links back to its reconcile. go/otel_plan.go is the same builder for the Go module.
import type { EnqueueCause, StampedEvent } from '../../shared/protocol/events';
import { OTEL_ATTR, OTEL_LINK, OTEL_SPAN } from '../../shared/protocol/otel-names';
import { randomSpanId, randomSpanRef, writeSpanRef, type SpanRef } from './span-ids';

export type AttrValue = string | number | boolean;
export type Attrs = Record<string, AttrValue>;

export interface LinkPlan extends SpanRef {
  attributes: Attrs;
}

export interface SpanPlan extends SpanRef {
  name: string;
  /** Undefined for a root span. */
  parentSpanId: string | undefined;
  startMs: number;
  endMs: number;
  attributes: Attrs;
  links: LinkPlan[];
  /** Set when the span failed: its status is an error with this message. */
  error: string | undefined;
}

interface OpenReconcile extends SpanRef {
  controller: string;
  key: string;
  startMs: number;
  /** When the key first waited for this reconcile, if the stream showed it. */
  queuedMs: number | undefined;
  causes: EnqueueCause[];
  attempt: number;
  reconcileId: string | undefined;
  wrote: LinkPlan[];
}

/** Keys remembered per controller for retry links and pending queue waits; beyond it the oldest go. */
export const MAX_REMEMBERED_KEYS = 10_000;

const RETRY_CAUSES = new Set<EnqueueCause['type']>(['requeue', 'requeueAfter', 'errorBackoff']);
const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deleteAllOf', 'updateStatus', 'patchStatus']);

export class SpanPlanner {
  private readonly open = new Map<string, OpenReconcile>();
  private readonly byReconcileId = new Map<string, OpenReconcile>();
  private readonly firstQueued = new Map<string, number>();
  private readonly lastReconcile = new Map<string, SpanRef>();

  constructor(private readonly emit: (span: SpanPlan) => void) {}

  observe(ev: StampedEvent): void {
    switch (ev.kind) {
      case 'queue.add':
      case 'queue.addAfter':
        return this.queued(ev.queue, ev.key, ev.ts);
      case 'reconcile.start':
        return this.started(ev);
      case 'client.request':
        return this.wrote(ev);
      case 'reconcile.end':
        return this.ended(ev);
      default:
        return;
    }
  }

  private queued(queue: string, key: string, ts: number): void {
    const id = slot(queue, key);
    if (!this.firstQueued.has(id)) remember(this.firstQueued, id, ts);
  }

  private started(ev: Extract<StampedEvent, { kind: 'reconcile.start' }>): void {
    const id = slot(ev.controller, ev.key);
    const queuedMs = this.firstQueued.get(id);
    this.firstQueued.delete(id);
    const ids = randomSpanRef();
    const r: OpenReconcile = {
      traceId: ids.traceId,
      spanId: ids.spanId,
      controller: ev.controller,
      key: ev.key,
      startMs: ev.ts,
      queuedMs: queuedMs !== undefined && queuedMs <= ev.ts ? queuedMs : undefined,
      causes: ev.causes,
      attempt: ev.attempt,
      reconcileId: ev.reconcileId || undefined,
      wrote: [],
    };
    this.open.set(id, r);
    if (ev.reconcileId) this.byReconcileId.set(ev.reconcileId, r);
  }

  private ended(ev: Extract<StampedEvent, { kind: 'reconcile.end' }>): void {
    const id = slot(ev.controller, ev.key);
    const r = this.open.get(id);
    if (r === undefined) return;
    this.open.delete(id);
    if (r.reconcileId) this.byReconcileId.delete(r.reconcileId);
    const attributes: Attrs = {
      [OTEL_ATTR.controller]: r.controller,
      [OTEL_ATTR.key]: r.key,
      [OTEL_ATTR.result]: ev.outcome,
      [OTEL_ATTR.attempt]: r.attempt,
      [OTEL_ATTR.causes]: r.causes.length,
    };
    if (r.reconcileId) attributes[OTEL_ATTR.reconcileId] = r.reconcileId;
    if (ev.error) attributes[OTEL_ATTR.error] = ev.error;
    if (ev.requeueAfterMs !== undefined) attributes[OTEL_ATTR.requeueAfterMs] = ev.requeueAfterMs;
    const links = [...this.causeLinks(r, id), ...r.wrote];
    this.emit(span(r, undefined, OTEL_SPAN.reconcile, r.startMs, ev.ts, attributes, links, ev.error || undefined));
    if (r.queuedMs !== undefined) this.emit(queueWait(r, r.queuedMs));
    remember(this.lastReconcile, id, { traceId: r.traceId, spanId: r.spanId });
  }

  /** One link per distinct target: the writes behind the watch events, then the previous reconcile on a retry. */
  private causeLinks(r: OpenReconcile, id: string): LinkPlan[] {
    const out = new Map<string, LinkPlan>();
    for (const c of r.causes) {
      const src = c.source;
      if (src?.uid && src.resourceVersion && c.eventType) {
        const target = writeSpanRef(src.uid, src.resourceVersion);
        if (!out.has(target.spanId)) out.set(target.spanId, link(target, causeAttrs(c)));
      }
      const prev = this.lastReconcile.get(id);
      if (RETRY_CAUSES.has(c.type) && prev && !out.has(prev.spanId)) {
        out.set(prev.spanId, link(prev, { [OTEL_ATTR.link]: OTEL_LINK.retry, [OTEL_ATTR.causeType]: c.type }));
      }
    }
    return [...out.values()];
  }

  private wrote(ev: Extract<StampedEvent, { kind: 'client.request' }>): void {
    if (ev.cached || !WRITE_VERBS.has(ev.verb)) return;
    const r = this.reconcileOf(ev.reconcileId, ev.controller);
    const made =
      ev.ref.uid && ev.ref.resourceVersion && !ev.error ? writeSpanRef(ev.ref.uid, ev.ref.resourceVersion) : undefined;
    // A write that made a version starts that version's trace; one that made none stays inside its reconcile.
    const ids: SpanRef = made ?? (r ? { traceId: r.traceId, spanId: randomSpanId() } : randomSpanRef());
    const attributes: Attrs = {
      [OTEL_ATTR.verb]: ev.verb,
      [OTEL_ATTR.objectKind]: ev.ref.gvk,
      [OTEL_ATTR.objectName]: ev.ref.name,
    };
    if (ev.ref.namespace) attributes[OTEL_ATTR.objectNamespace] = ev.ref.namespace;
    if (ev.ref.uid) attributes[OTEL_ATTR.objectUid] = ev.ref.uid;
    if (made) attributes[OTEL_ATTR.objectResourceVersion] = ev.ref.resourceVersion as string;
    if (ev.code !== undefined) attributes[OTEL_ATTR.statusCode] = ev.code;
    if (ev.controller ?? r?.controller) attributes[OTEL_ATTR.controller] = (ev.controller ?? r?.controller) as string;
    if (ev.reconcileId) attributes[OTEL_ATTR.reconcileId] = ev.reconcileId;
    if (ev.error) attributes[OTEL_ATTR.error] = ev.error;
    const links: LinkPlan[] = [];
    if (r && made) links.push(link(r, { [OTEL_ATTR.link]: OTEL_LINK.madeBy }));
    if (r) r.wrote.push(link(ids, { [OTEL_ATTR.link]: OTEL_LINK.wrote }));
    const parent = r && !made ? r.spanId : undefined;
    this.emit(
      span(ids, parent, OTEL_SPAN.write, ev.ts - ev.durationMs, ev.ts, attributes, links, ev.error || undefined),
    );
  }

  /** The reconcile that made a call: by its reconcile ID, else the controller's only running one. */
  private reconcileOf(reconcileId: string | undefined, controller: string | undefined): OpenReconcile | undefined {
    if (reconcileId) return this.byReconcileId.get(reconcileId);
    if (controller === undefined) return undefined;
    let only: OpenReconcile | undefined;
    for (const r of this.open.values()) {
      if (r.controller !== controller) continue;
      if (only) return undefined;
      only = r;
    }
    return only;
  }
}

function queueWait(r: OpenReconcile, queuedMs: number): SpanPlan {
  const attributes = {
    [OTEL_ATTR.controller]: r.controller,
    [OTEL_ATTR.key]: r.key,
    [OTEL_ATTR.queueWaitMs]: r.startMs - queuedMs,
    [OTEL_ATTR.causes]: r.causes.length,
  };
  const ids = { traceId: r.traceId, spanId: randomSpanId() };
  return span(ids, r.spanId, OTEL_SPAN.queueWait, queuedMs, r.startMs, attributes, [], undefined);
}

// Plain constructors, one shape per type: object spreads on this path cost more than the rest of a span.
function span(
  ids: SpanRef,
  parentSpanId: string | undefined,
  name: string,
  startMs: number,
  endMs: number,
  attributes: Attrs,
  links: LinkPlan[],
  error: string | undefined,
): SpanPlan {
  return { traceId: ids.traceId, spanId: ids.spanId, parentSpanId, name, startMs, endMs, attributes, links, error };
}

function link(to: SpanRef, attributes: Attrs): LinkPlan {
  return { traceId: to.traceId, spanId: to.spanId, attributes };
}

function causeAttrs(c: EnqueueCause): Attrs {
  const src = c.source!;
  const a: Attrs = {
    [OTEL_ATTR.link]: OTEL_LINK.cause,
    [OTEL_ATTR.causeType]: c.type,
    [OTEL_ATTR.objectKind]: src.gvk,
    [OTEL_ATTR.objectName]: src.name,
    [OTEL_ATTR.objectUid]: src.uid as string,
    [OTEL_ATTR.objectResourceVersion]: src.resourceVersion as string,
  };
  if (c.eventType) a[OTEL_ATTR.eventType] = c.eventType;
  if (src.namespace) a[OTEL_ATTR.objectNamespace] = src.namespace;
  return a;
}

const slot = (controller: string, key: string): string => `${controller}\u0000${key}`;

/** Sets a key, dropping the oldest entries past MAX_REMEMBERED_KEYS (Map keeps insertion order). */
function remember<V>(m: Map<string, V>, k: string, v: V): void {
  m.delete(k);
  m.set(k, v);
  if (m.size > MAX_REMEMBERED_KEYS) m.delete(m.keys().next().value as string);
}
