// Ports handleAnyWatch from client-go tools/cache/reflector.go: feeds one watch stream into a store,
// tracking resourceVersions, until the stream ends, errors, or the reflector is told to stop.
import type { KubeObject, KubeStatus, WatchEvent } from '../../../shared/models/object';
import type { WatchStream } from '../client/lister-watcher';
import type { Clock } from '../util/clock';
import { ApiError } from '../util/errors';
import { metaOf } from './keys';
import { objectRef } from './object-ref';
import { ErrStopRequested, VeryShortWatchError, isResourceExpired } from './reflector-errors';
import type { ReflectorReporter } from './reflector-reporter';
import type { ReflectorStore } from './reflector-store';

/** The annotation a WatchList stream's bookmark carries once every initial event was sent. */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';

export type WatchStop = { stop: 'abort' } | { stop: 'resync'; err: unknown };

/**
 * Stops that do not come from the stream (the abort signal, a failed resync), delivered to whichever
 * read is pending. A stop raised while no watch is open waits for the next one.
 */
export class StopSource {
  private reason: WatchStop | undefined;
  private listener: ((s: WatchStop) => void) | undefined;

  get pending(): WatchStop | undefined {
    return this.reason;
  }

  raise(s: WatchStop): void {
    this.reason ??= s;
    this.listener?.(this.reason);
  }

  listen(fn: ((s: WatchStop) => void) | undefined): void {
    this.listener = fn;
  }

  clear(): void {
    this.reason = undefined;
    this.listener = undefined;
  }
}

/** An open stream and its one iterator (a WatchList stream is read on after its initial events). */
export interface OpenWatch<T extends KubeObject> {
  stream: WatchStream<T>;
  it: AsyncIterator<WatchEvent<T>>;
}

export const openWatch = <T extends KubeObject>(stream: WatchStream<T>): OpenWatch<T> => ({
  stream,
  it: stream[Symbol.asyncIterator](),
});

export interface HandleWatchOptions<T extends KubeObject> {
  store: ReflectorStore<T>;
  name: string;
  /** Events of another "<apiVersion>/<Kind>" are dropped; undefined accepts all. */
  filterGVK: string | undefined;
  /** gvk for probe refs of objects that carry none. */
  refGVK: string;
  clock: Clock;
  report: ReflectorReporter;
  signal: AbortSignal;
  stops: StopSource;
  /** The resourceVersion the watch started from ("" / "0" defer RV tracking until a non-Added event). */
  watchRV: string;
  timeoutSeconds: number;
  setResourceVersion(rv: string): void;
  /** For the watchEnd probe. */
  resourceVersion(): string;
  /** WatchList's initial phase: return at the initial-events-end bookmark and keep the stream open. */
  exitOnInitialEventsEnd?: boolean;
  /** Report each event as reflector.event (not for WatchList initial events, which are list items). */
  reportEvents: boolean;
}

export interface WatchResult {
  /** undefined = the server closed the stream normally; ErrStopRequested = we were told to stop. */
  err: unknown;
  initialEventsEnd: boolean;
}

/**
 * Reads the stream with one callback per event rather than an await loop: a read that resolves calls straight
 * into the event's processing, so an event costs one promise job instead of three and no promise of its own.
 * A stop (abort, failed resync) ends a pending read at once; one raised while an event is processed ends the
 * watch before the next read, and an event already read is still applied.
 */
export function handleWatch<T extends KubeObject>(w: OpenWatch<T>, o: HandleWatchOptions<T>): Promise<WatchResult> {
  return new Promise<WatchResult>((resolve) => {
    const start = o.clock.now();
    let events = 0;
    let initialEventsEnd = false;
    let deferRV = o.watchRV === '' || o.watchRV === '0';
    let finished = false;
    const onAbort = (): void => o.stops.raise({ stop: 'abort' });
    const finish = (reason: string, err?: unknown, keepOpen = false): void => {
      if (finished) return;
      finished = true;
      o.signal.removeEventListener('abort', onAbort);
      o.stops.listen(undefined);
      try {
        if (!keepOpen) {
          w.stream.stop();
          o.report.watchEnd(o.resourceVersion(), events, start, reason, err);
        }
        resolve({ err, initialEventsEnd });
      } catch (thrown) {
        // A stream or reporter that throws ends the watch with that error rather than leaving the reflector
        // waiting for it (or the throw escaping from a callback).
        resolve({ err: thrown, initialEventsEnd });
      }
    };
    const stopWith = (s: WatchStop): void =>
      s.stop === 'abort' ? finish('stopped', ErrStopRequested) : finish('error', s.err);
    const fail = (err: unknown): void => finish('error', err);

    /** Applies one read; true when the watch reads on. */
    const step = (next: IteratorResult<WatchEvent<T>>): boolean => {
      if (next.done) {
        const lasted = o.clock.now() - start;
        if (lasted < 1000 && events === 0) finish('too-short', new VeryShortWatchError(o.name));
        else finish(lasted >= o.timeoutSeconds * 1000 ? 'timeout' : 'closed');
        return false;
      }
      const ev = next.value;
      if (ev.type === 'ERROR') {
        const apiErr = ApiError.fromStatus(ev.object as KubeStatus);
        finish(isResourceExpired(apiErr) ? 'expired' : 'error', apiErr);
        return false;
      }
      const obj = ev.object as T;
      if (!metaOf(obj)) return true;
      if (o.filterGVK && !declaresGvkId(obj, o.filterGVK)) return true;
      events++;
      applyEvent(o, ev.type, obj);
      if (ev.type === 'BOOKMARK' && obj.metadata.annotations?.[INITIAL_EVENTS_END_ANNOTATION] === 'true') {
        initialEventsEnd = true;
      }
      if (!(deferRV && ev.type === 'ADDED')) {
        deferRV = false;
        const rv = obj.metadata.resourceVersion ?? '';
        o.setResourceVersion(rv);
        o.store.updateResourceVersion?.(rv);
      }
      if (o.exitOnInitialEventsEnd && initialEventsEnd) {
        finish('initial events end', undefined, true);
        return false;
      }
      return true;
    };

    const onRead = (next: IteratorResult<WatchEvent<T>>): void => {
      if (finished) return;
      try {
        if (step(next)) read();
      } catch (err) {
        fail(err);
      }
    };
    // A stop raised before or between reads wins over the next read.
    const read = (): void => {
      if (finished) return;
      const pending = o.stops.pending;
      if (pending) return stopWith(pending);
      w.it.next().then(onRead, fail);
    };

    // A stop is acted on a job later, as a read's result is, so neither overtakes work already queued.
    o.stops.listen((s) => queueMicrotask(() => stopWith(s)));
    if (o.signal.aborted) onAbort();
    else o.signal.addEventListener('abort', onAbort, { once: true });
    try {
      read();
    } catch (err) {
      fail(err);
    }
  });
}

/** gvkIdOf(obj, gvkId) === gvkId (an object lacking apiVersion or kind passes), without building the string. */
function declaresGvkId(obj: KubeObject, gvkId: string): boolean {
  const { apiVersion, kind } = obj as { apiVersion?: unknown; kind?: unknown };
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !apiVersion || !kind) return true;
  return (
    gvkId.length === apiVersion.length + 1 + kind.length &&
    gvkId.startsWith(apiVersion) &&
    gvkId.charCodeAt(apiVersion.length) === 47 /* '/' */ &&
    gvkId.endsWith(kind)
  );
}

function applyEvent<T extends KubeObject>(o: HandleWatchOptions<T>, type: WatchEvent['type'], obj: T): void {
  if (type === 'BOOKMARK') {
    o.store.bookmark?.(obj.metadata.resourceVersion ?? '');
    o.report.bookmark(obj.metadata.resourceVersion ?? '');
    return;
  }
  if (type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED') return;
  try {
    if (type === 'ADDED') o.store.add(obj);
    else if (type === 'MODIFIED') o.store.update(obj);
    else o.store.delete(obj);
  } catch (err) {
    // Store errors are only reported; the watch goes on.
    o.report.error(err);
  }
  if (o.reportEvents) o.report.event(type, () => objectRef(obj, o.refGVK));
}
