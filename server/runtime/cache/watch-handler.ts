// Ports handleAnyWatch from client-go tools/cache/reflector.go: feeds one watch stream into a store,
// tracking resourceVersions, until the stream ends, errors, or the reflector is told to stop.
import type { KubeObject, KubeStatus, WatchEvent } from '../../../shared/models/object';
import type { WatchStream } from '../client/lister-watcher';
import type { Clock } from '../util/clock';
import { ApiError } from '../util/errors';
import { metaOf } from './keys';
import { gvkIdOf } from '../client/gvk';
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

export async function handleWatch<T extends KubeObject>(
  w: OpenWatch<T>,
  o: HandleWatchOptions<T>,
): Promise<WatchResult> {
  const start = o.clock.now();
  let events = 0;
  let initialEventsEnd = false;
  let deferRV = o.watchRV === '' || o.watchRV === '0';
  // One wake-up per pending read, so a long watch does not pile reactions on a shared promise.
  let wake: ((s: WatchStop) => void) | undefined;
  o.stops.listen((s) => wake?.(s));
  const onAbort = (): void => o.stops.raise({ stop: 'abort' });
  if (o.signal.aborted) onAbort();
  else o.signal.addEventListener('abort', onAbort, { once: true });
  const finish = (reason: string, err?: unknown, keepOpen = false): WatchResult => {
    o.signal.removeEventListener('abort', onAbort);
    o.stops.listen(undefined);
    if (!keepOpen) {
      w.stream.stop();
      o.report.watchEnd(o.resourceVersion(), events, start, reason, err);
    }
    return { err, initialEventsEnd };
  };
  try {
    for (;;) {
      const next: IteratorResult<WatchEvent<T>> | WatchStop =
        o.stops.pending ??
        (await new Promise<IteratorResult<WatchEvent<T>> | WatchStop>((resolve, reject) => {
          wake = resolve;
          w.it.next().then(resolve, reject);
        }));
      wake = undefined;
      if ('stop' in next) {
        return next.stop === 'abort' ? finish('stopped', ErrStopRequested) : finish('error', next.err);
      }
      if (next.done) {
        const lasted = o.clock.now() - start;
        if (lasted < 1000 && events === 0) return finish('too-short', new VeryShortWatchError(o.name));
        return finish(lasted >= o.timeoutSeconds * 1000 ? 'timeout' : 'closed');
      }
      const ev = next.value;
      if (ev.type === 'ERROR') {
        const apiErr = ApiError.fromStatus(ev.object as KubeStatus);
        return finish(isResourceExpired(apiErr) ? 'expired' : 'error', apiErr);
      }
      const obj = ev.object as T;
      if (!metaOf(obj)) continue;
      if (o.filterGVK && gvkIdOf(obj, o.filterGVK) !== o.filterGVK) continue;
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
      if (o.exitOnInitialEventsEnd && initialEventsEnd) return finish('initial events end', undefined, true);
    }
  } catch (err) {
    return finish('error', err);
  }
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
