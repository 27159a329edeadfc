// The dashboard's Probe: stamps every runtime event with a seq and a time, keeps a bounded ring of them,
// and holds the current RuntimeView by running the shared reducer, so the snapshot a client receives is the
// state replaying would build. Delivery is batched: events collect for flushIntervalMs, then every batch
// listener (sockets, a --record file) gets them at once. The runtime's emit path only stamps and appends.
import { randomUUID } from 'node:crypto';
import type { KubeObject } from '../../../shared/models/object';
import type { RuntimeEvent, StampedEvent } from '../../../shared/protocol/events';
import type { RecordingState } from '../../../shared/protocol/commands';
import type { ObjectCoordinates, ObjectInspection } from '../../../shared/protocol/socket';
import { reduce, ReduceSession } from '../../../shared/protocol/reduce';
import { createView, refId } from '../../../shared/protocol/view';
import type { RuntimeView, ViewLimits } from '../../../shared/protocol/view';
import type { Probe } from '../../runtime/instrumentation/probe';
import type { Clock, TimerHandle } from '../../runtime/util/clock';
import { realClock } from '../../runtime/util/clock';
import { CacheRefs } from './cache-refs';
import { EventRing } from './event-ring';
import { Keyframes } from './keyframes';
import type { Keyframe } from './keyframes';
import { EMPTY_OBJECT_SOURCE } from './object-source';
import type { ObjectSource } from './object-source';
import { ObjectVersionStore } from './object-versions';
import type { ObjectVersionStoreOptions } from './object-versions';
import { redactObject } from './redact';

export interface RecorderOptions {
  /** Default realClock. */
  clock?: Clock;
  /**
   * Bytes (estimated, see event-bytes.ts) the ring of past events may hold: the oldest events go first once
   * it is full. The ring serves resumes, inspect's history and exports. Default DEFAULT_RING_BYTES (64 MiB);
   * Infinity keeps every event up to `capacity`.
   */
  ringBytes?: number;
  /** Most events the ring keeps, whatever their size. Default DEFAULT_RING_EVENTS (1,000,000). */
  capacity?: number;
  /** Caps of the derived view. Default DEFAULT_VIEW_LIMITS. */
  viewLimits?: Partial<ViewLimits>;
  /** The informers' cached copies, for inspect and per-object versions. Default: none. */
  objectSource?: ObjectSource;
  /** Bounds of the per-object version history; false turns it off. Default {maxObjects:1000,maxVersions:10}. */
  objectVersions?: ObjectVersionStoreOptions | false;
  /** Batch window. Default 75 ms (the transport streams every 50-100 ms). */
  flushIntervalMs?: number;
  /** Pending events that force an early flush, bounding memory between flushes. Default 5000. */
  maxPending?: number;
  /** Identifies this process's seq space. Default a random UUID. */
  serverEpoch?: string;
  /** Start paused. Default false. */
  paused?: boolean;
  /**
   * emit() is fed only by this process's runtime, whose events are typed literals: the reducer then skips
   * its per-event shape check for them. Leave it off where emit() carries events from elsewhere (a Go
   * bridge's stream); ingest() (replays) is checked either way. Default false.
   */
  trustedEmits?: boolean;
  /**
   * Events between the recorder's own keyframes (the state a viewer's recording starts from is rebuilt from
   * the nearest one). Fewer when the ring holds fewer than four times as many. Default 10,000.
   */
  keyframeEvery?: number;
}

/** Keyframes the recorder keeps across its ring at most. */
const MAX_KEYFRAMES = 32;

type IndexerUpdate = Extract<StampedEvent, { kind: 'indexer.update' }>;

export type BatchListener = (events: StampedEvent[]) => void;
export type ResetListener = (reason: 'seek' | 'reset') => void;

export class Recorder implements Probe {
  private readonly clock: Clock;
  private readonly ring: EventRing;
  private readonly objects: ObjectSource;
  private readonly versions: ObjectVersionStore | undefined;
  private readonly flushIntervalMs: number;
  private readonly maxPending: number;
  private readonly viewLimits: Partial<ViewLimits>;
  private readonly trustedEmits: boolean;
  /** Whether a pending event came from somewhere the reducer must check (ingest, or emit when not trusted). */
  private pendingUnchecked = false;
  private epoch: string;
  private _view: RuntimeView;
  /**
   * Lets flushes update _view in place while nobody has read it since the last flush (no client connected,
   * or between snapshots): the reducer then copies nothing it already copied for an earlier batch.
   */
  private readonly reduceSession = new ReduceSession();
  private nextSeq = 1;
  private paused: boolean;
  private closed = false;
  /** Stamped, not yet handed to batch listeners. */
  private pending: StampedEvent[] = [];
  /**
   * Objects whose cached copy changed since the last flush: id → the newest indexer.update about it (its ref,
   * op and ts are what captureObjects needs; the event itself saves a record per event).
   */
  private dirtyObjects = new Map<string, IndexerUpdate>();
  private timer: TimerHandle | undefined;
  private readonly batchListeners = new Set<BatchListener>();
  private readonly resetListeners = new Set<ResetListener>();
  /** The caches' keys and versions as the events built them: the cache half of a state record. */
  private caches = new CacheRefs();
  private readonly keyframes: Keyframes;
  /** File being written by a recording listener, shown in RecordingState. */
  recordingFile: string | undefined;
  /** The --record file skips events while true; viewers' streams never stop for it. */
  recordingFilePaused = false;

  constructor(opts: RecorderOptions = {}) {
    this.clock = opts.clock ?? realClock;
    this.ring = new EventRing({
      ...(opts.capacity !== undefined ? { capacity: opts.capacity } : {}),
      ...(opts.ringBytes !== undefined ? { maxBytes: opts.ringBytes } : {}),
    });
    this.objects = opts.objectSource ?? EMPTY_OBJECT_SOURCE;
    this.versions = opts.objectVersions === false ? undefined : new ObjectVersionStore(opts.objectVersions);
    this.flushIntervalMs = opts.flushIntervalMs ?? 75;
    this.maxPending = opts.maxPending ?? 5000;
    this.viewLimits = opts.viewLimits ?? {};
    this.epoch = opts.serverEpoch ?? randomUUID();
    this.paused = opts.paused ?? false;
    this.trustedEmits = opts.trustedEmits ?? false;
    this._view = createView(this.viewLimits);
    this.keyframes = new Keyframes(opts.keyframeEvery ?? 10_000, MAX_KEYFRAMES);
    this.keyframes.add({ seq: 0, ts: 0, view: this._view, caches: this.caches.snapshot() });
  }

  get enabled(): boolean {
    return !this.paused && !this.closed;
  }

  get serverEpoch(): string {
    return this.epoch;
  }

  /** The highest seq stamped (0 before any). */
  get seq(): number {
    return this.nextSeq - 1;
  }

  /** The view including every stamped event (pending ones are reduced first). */
  get view(): RuntimeView {
    if (this.pending.length > 0 && this._view.lastSeq < this.seq) {
      this._view = reduce(this._view, this.pending, this.reduceSession, { trusted: !this.pendingUnchecked });
      this.reduced();
    }
    // The caller may keep this view (a snapshot being sent, a test): from now on it must not change.
    this.reduceSession.share();
    return this._view;
  }

  /** After the view caught up with every stamped event: a keyframe when one is due. */
  private reduced(): void {
    if (this._view.lastSeq !== this.seq) return;
    const every = Math.max(1, Math.min(this.keyframes.every, Math.floor(this.ring.size / 4)));
    if (this.seq - this.keyframes.lastSeq < every) return;
    this.reduceSession.share();
    this.keyframes.add({ seq: this.seq, ts: this._view.lastTs, view: this._view, caches: this.caches.snapshot() });
    this.keyframes.dropBefore(this.ring.firstSeq ?? this.nextSeq);
  }

  /** The recorder's keyframes after seq `after` up to seq `upTo`, oldest first. */
  keyframesBetween(after: number, upTo: number): Keyframe[] {
    return this.keyframes.between(after, upTo);
  }

  /** The state now: the view up to the newest event and the caches' contents there. Neither may be changed. */
  stateNow(): Keyframe {
    const view = this.view;
    return { seq: view.lastSeq, ts: view.lastTs, view, caches: this.caches.snapshot() };
  }

  /**
   * The oldest seq whose state can be rebuilt exactly (the oldest keyframe the ring still follows): a span
   * asked to start earlier starts here, and its header's range says so.
   */
  oldestStateSeq(): number {
    this.keyframes.dropBefore(this.ring.firstSeq ?? this.nextSeq);
    return this.keyframes.first()?.seq ?? this.seq;
  }

  /**
   * The state right after seq, rebuilt from the nearest keyframe and the ring's events: where a viewer's
   * recording that starts at seq + 1 begins. When the ring no longer holds what follows seq, the oldest state
   * it can rebuild (later than asked; its seq says where).
   */
  stateAt(seq: number): Keyframe {
    const now = this.stateNow();
    if (seq >= now.seq) return now;
    this.keyframes.dropBefore(this.ring.firstSeq ?? this.nextSeq);
    const from = this.keyframes.at(seq) ?? this.keyframes.first();
    if (!from) return now;
    const events = (this.ring.since(from.seq) ?? []).filter((e) => e.seq <= seq);
    const caches = from.caches.snapshot();
    caches.apply(events);
    const view = reduce(from.view, events, undefined, { trusted: false });
    return { seq: view.lastSeq, ts: view.lastTs, view, caches };
  }

  /**
   * Stamps the event in place: runtime emit sites build a fresh literal per emit and never touch it again,
   * so adding seq and ts to it saves a copy of every event (the copy and the garbage it left behind were a
   * large part of the recorder's cost). An event that cannot take the stamp (frozen, or already stamped,
   * e.g. by another Recorder behind a MultiProbe) is copied instead, so nobody's stamp is overwritten.
   */
  emit(event: RuntimeEvent): void {
    if (this.paused || this.closed) return;
    const seq = this.nextSeq++;
    const ts = this.clock.now();
    let stamped: StampedEvent;
    if (!('seq' in event) && Object.isExtensible(event)) {
      stamped = event as StampedEvent;
      stamped.seq = seq;
      // ts is a double. Added as one, V8 would keep the field unboxed in a box of the event's own, and every
      // read of it where events of many kinds pass (the reducer, the transport) would box a fresh copy;
      // a null first makes the field an ordinary one that holds the time's own number, read for free.
      (stamped as { ts: unknown }).ts = null;
      stamped.ts = ts;
    } else stamped = { ...event, seq, ts } as StampedEvent;
    if (!this.trustedEmits) this.pendingUnchecked = true;
    this.append(stamped);
  }

  /** Feeds already-stamped events (a replay), keeping their seq and ts. Events not above seq are ignored. */
  ingest(events: readonly StampedEvent[]): void {
    if (this.closed) return;
    for (const ev of events) {
      if (ev.seq < this.nextSeq) continue;
      this.nextSeq = ev.seq + 1;
      this.pendingUnchecked = true;
      this.append(ev);
    }
  }

  private append(ev: StampedEvent): void {
    this.ring.push(ev);
    this.pending.push(ev);
    if (ev.kind === 'indexer.update') this.caches.update(ev.informer, ev.op, ev.key, ev.ref);
    if (ev.kind === 'indexer.update' && this.versions) this.dirtyObjects.set(refId(ev.ref), ev);
    if (this.pending.length >= this.maxPending) this.flush();
    else this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    // Without listeners nobody waits for a batch: the view is brought up to date lazily (or at maxPending).
    if (this.batchListeners.size === 0 && this.dirtyObjects.size === 0) return;
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      this.flush();
    }, this.flushIntervalMs);
  }

  /** Reduces pending events into the view, captures changed objects and hands the batch to listeners. */
  flush(): void {
    this.timer?.cancel();
    this.timer = undefined;
    if (this.pending.length === 0 && this.dirtyObjects.size === 0) return;
    const batch = this.pending;
    const trusted = !this.pendingUnchecked;
    this.pending = [];
    this.pendingUnchecked = false;
    if (this._view.lastSeq < this.seq) {
      this._view = reduce(this._view, batch, this.reduceSession, { trusted });
      this.reduced();
    }
    this.captureObjects();
    if (batch.length === 0) return;
    for (const l of this.batchListeners) {
      try {
        l(batch);
      } catch {
        // A failing listener (a closed file, a dead socket) must not stop the others or the runtime.
      }
    }
  }

  private captureObjects(): void {
    if (!this.versions || this.dirtyObjects.size === 0) return;
    const versions = this.versions;
    const objects = this.objects;
    this.dirtyObjects.forEach(({ ref, op, ts }, id) => {
      if (op === 'delete') return versions.record(id, null, ts, ref.resourceVersion);
      const obj = objects.get(ref.gvk, ref.namespace, ref.name);
      if (obj) versions.record(id, redactObject(obj), ts);
    });
    this.dirtyObjects.clear();
  }

  onBatch(listener: BatchListener): () => void {
    this.batchListeners.add(listener);
    if (this.pending.length > 0) this.schedule();
    return () => this.batchListeners.delete(listener);
  }

  onReset(listener: ResetListener): () => void {
    this.resetListeners.add(listener);
    return () => this.resetListeners.delete(listener);
  }

  /** Events after seq still in the ring, or undefined when some were evicted. */
  eventsAfter(seq: number, limit?: number): StampedEvent[] | undefined {
    return this.ring.since(seq, limit);
  }

  /** The newest `limit` ring events matching pred, oldest first. */
  recentEvents(pred: (ev: StampedEvent) => boolean, limit: number): StampedEvent[] {
    return this.ring.findLast(pred, limit);
  }

  /** Ring bounds, for inspect answers, and what it holds against its byte budget. */
  ringBounds(): { firstSeq: number; lastSeq: number; size: number; bytes: number; maxBytes: number; evicted: number } {
    const r = this.ring;
    return {
      firstSeq: r.firstSeq ?? 0,
      lastSeq: r.lastSeq ?? 0,
      size: r.size,
      bytes: r.bytes,
      maxBytes: r.maxBytes,
      evicted: r.evicted,
    };
  }

  /** The cached copy (redacted) and its recent versions. */
  inspectObject(c: ObjectCoordinates): ObjectInspection {
    this.flush();
    const raw: KubeObject | undefined = this.objects.get(c.gvk, c.namespace, c.name);
    const object = raw ? redactObject(raw) : null;
    const id = refId({ gvk: c.gvk, namespace: c.namespace, name: c.name });
    if (object && this.versions && this.versions.versions(id).length === 0) {
      this.versions.record(id, object, this.clock.now());
    }
    return { object: object ? structuredClone(object) : null, versions: this.versions?.versions(id) ?? [] };
  }

  /** Keys the informer's store holds now (its id is the gvk), filtered by a substring, sorted, capped. */
  inspectCache(
    informer: string,
    search: string | undefined,
    limit: number,
  ): { keys: string[]; total: number; indexes?: Record<string, number> } {
    const all = this.objects.keys?.(informer) ?? [];
    const matching = search ? all.filter((k) => k.includes(search)) : all;
    const indexes = this.objects.indexes?.(informer);
    return { keys: [...matching].sort().slice(0, limit), total: matching.length, ...(indexes ? { indexes } : {}) };
  }

  pause(): RecordingState {
    this.paused = true;
    return this.recordingState();
  }

  resume(): RecordingState {
    this.paused = false;
    return this.recordingState();
  }

  /** Pauses writing the --record file (the stream to every viewer goes on); the file gets a gap marker. */
  pauseRecordingFile(): RecordingState {
    this.recordingFilePaused = true;
    return this.recordingState();
  }

  resumeRecordingFile(): RecordingState {
    this.recordingFilePaused = false;
    return this.recordingState();
  }

  recordingState(): RecordingState {
    return {
      paused: this.paused || (this.recordingFile !== undefined && this.recordingFilePaused),
      evicted: this.ring.evicted,
      ...(this.recordingFile ? { file: this.recordingFile } : {}),
    };
  }

  /**
   * Forgets everything and starts a new seq space, optionally rebuilt from a state and the `events` after it
   * (a replay seek rebuilds from the nearest state record of the recording). The rebuilt events go into the
   * ring and the view but not to batch listeners: reset listeners are told afterwards and send each client
   * one snapshot instead.
   */
  reset(
    reason: 'seek' | 'reset' = 'reset',
    serverEpoch: string = randomUUID(),
    events: readonly StampedEvent[] = [],
    start?: { view: RuntimeView; caches: CacheRefs },
  ): void {
    this.timer?.cancel();
    this.timer = undefined;
    this.pending = [];
    this.pendingUnchecked = false;
    this.dirtyObjects.clear();
    this.ring.clear();
    this.versions?.clear();
    this.reduceSession.share();
    this.epoch = serverEpoch;
    let view = start?.view ?? createView(this.viewLimits);
    this.caches = start ? start.caches.snapshot() : new CacheRefs();
    this.keyframes.clear();
    this.keyframes.add({ seq: view.lastSeq, ts: view.lastTs, view, caches: this.caches.snapshot() });
    const CHUNK = 10_000;
    for (let i = 0; i < events.length; i += CHUNK) {
      const chunk = events.slice(i, i + CHUNK);
      for (const ev of chunk) this.ring.push(ev);
      this.caches.apply(chunk);
      view = reduce(view, chunk);
    }
    const last = events[events.length - 1];
    this.nextSeq = (last ? last.seq : view.lastSeq) + 1;
    this._view = view;
    for (const l of this.resetListeners) l(reason);
  }

  close(): void {
    this.flush();
    this.closed = true;
    this.timer?.cancel();
    this.timer = undefined;
    this.batchListeners.clear();
    this.resetListeners.clear();
  }
}
