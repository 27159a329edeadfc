// Ports controller-runtime pkg/internal/source/event_handler.go: the adapter registered on a shared
// informer that turns informer callbacks into events, runs predicates, then the user's handler — and
// tells the probe what happened (keys enqueued, or which predicate said no).
import type { KubeObject } from '../../../shared/models/object';
import { DeletedFinalStateUnknown, type ResourceEventHandler } from '../cache/interfaces';
import { type EventHandler, type RequestQueue } from '../handler/eventhandler';
import { queueView } from '../handler/queue-view';
import type { AddOpts } from '../workqueue/interfaces';
import { NOOP_PROBE, type Probe } from '../instrumentation/probe';
import type { Predicate } from '../predicate/predicate';
import { requestKey, type Request } from '../reconcile/reconcile';
import { NULL_LOGGER, type Logger } from '../reconcile/logger';
import type { CreateEvent, DeleteEvent, EventType, GenericEvent, UpdateEvent } from '../event/event';
import { objectRef } from '../cache/object-ref';
import { errorMessage } from '../util/errors';
import { handleCrash } from '../util/runtime';

export interface EventHandlerAdapterOptions {
  handler: EventHandler;
  predicates: Predicate[];
  queue: RequestQueue;
  signal: AbortSignal;
  /** "v1/Pod": stamped on events because list items often lack apiVersion/kind. */
  gvk: string;
  controller?: string;
  probe?: Probe;
  log?: Logger;
}

type AnyEvent = CreateEvent | UpdateEvent | DeleteEvent | GenericEvent;

/** A view of the queue that remembers which keys one handler call enqueued. */
function recordingQueue(q: RequestQueue, keys: string[]): RequestQueue {
  const addWithOpts = q.addWithOpts;
  return queueView(q, {
    add: (item, cause) => {
      keys.push(requestKey(item));
      q.add(item, cause);
    },
    addAfter: (item, delayMs, cause) => q.addAfter(item, delayMs, cause),
    addRateLimited: (item, cause) => q.addRateLimited(item, cause),
    ...(addWithOpts && {
      addWithOpts: (opts: AddOpts, ...items: Request[]) => {
        for (const item of items) keys.push(requestKey(item));
        addWithOpts.call(q, opts, ...items);
      },
    }),
  });
}

export class EventHandlerAdapter {
  private readonly probe: Probe;
  private readonly log: Logger;

  constructor(private readonly o: EventHandlerAdapterOptions) {
    this.probe = o.probe ?? NOOP_PROBE;
    this.log = o.log ?? NULL_LOGGER;
  }

  /** The informer-facing side. */
  handlerFuncs(): ResourceEventHandler<KubeObject> {
    return {
      onAdd: (obj, isInInitialList) => this.onAdd(obj, isInInitialList),
      onUpdate: (oldObj, newObj) => this.onUpdate(oldObj, newObj),
      onDelete: (obj) => this.onDelete(obj),
    };
  }

  onAdd(obj: KubeObject, isInInitialList: boolean): void {
    if (!isObject(obj)) return this.log.error(new Error('unexpected object type'), 'OnAdd missing Object');
    this.dispatch('create', { object: obj, isInInitialList, gvk: this.o.gvk }, obj);
  }

  onUpdate(oldObj: KubeObject, newObj: KubeObject): void {
    if (!isObject(oldObj) || !isObject(newObj)) {
      return this.log.error(new Error('unexpected object type'), 'OnUpdate missing ObjectOld or ObjectNew');
    }
    this.dispatch('update', { objectOld: oldObj, objectNew: newObj, gvk: this.o.gvk }, newObj);
  }

  onDelete(obj: KubeObject | DeletedFinalStateUnknown<KubeObject>): void {
    let object: unknown = obj;
    let deleteStateUnknown = false;
    if (obj instanceof DeletedFinalStateUnknown) {
      object = obj.obj;
      deleteStateUnknown = true;
    }
    if (!isObject(object)) return this.log.error(new Error('unexpected object type'), 'OnDelete missing Object');
    this.dispatch('delete', { object, deleteStateUnknown, gvk: this.o.gvk }, object);
  }

  /** For the Channel source: generic events go through the same predicates and probe path. */
  generic(e: GenericEvent): void {
    if (!e.object) return;
    this.dispatch('generic', { ...e, gvk: e.gvk ?? this.o.gvk }, e.object);
  }

  private dispatch(type: EventType, e: AnyEvent, obj: KubeObject): void {
    // Upstream runs predicates and handlers with no recover: a panic crashes the process (see handleCrash).
    try {
      for (const p of this.o.predicates) {
        if (!this.test(p, type, e)) {
          if (this.probe.enabled) this.emit(type, obj, [], p.name);
          return;
        }
      }
    } catch (err) {
      return this.panicked(type, obj, err, 'predicate');
    }
    const keys: string[] = [];
    const queue = this.probe.enabled ? recordingQueue(this.o.queue, keys) : this.o.queue;
    const ctx = { signal: this.o.signal };
    const h = this.o.handler;
    let ret: void | Promise<void>;
    try {
      ret =
        type === 'create'
          ? h.create(ctx, e as CreateEvent, queue)
          : type === 'update'
            ? h.update(ctx, e as UpdateEvent, queue)
            : type === 'delete'
              ? h.delete(ctx, e as DeleteEvent, queue)
              : h.generic(ctx, e as GenericEvent, queue);
    } catch (err) {
      return this.panicked(type, obj, err, 'handler');
    }
    if (ret instanceof Promise) {
      ret.then(
        () => {
          if (this.probe.enabled) this.emit(type, obj, keys);
        },
        (err: unknown) => this.panicked(type, obj, err, 'handler'),
      );
    } else if (this.probe.enabled) {
      this.emit(type, obj, keys);
    }
  }

  /** Crashes as upstream; with ReallyCrash off, logs and tells the dashboard instead of dropping silently. */
  private panicked(type: EventType, obj: KubeObject, err: unknown, where: 'predicate' | 'handler'): void {
    if (handleCrash(err)) return;
    this.log.error(err, `Observed a panic in an event ${where}`, { handler: this.o.handler.name, event: type });
    if (this.probe.enabled) this.emit(type, obj, [], undefined, `${where}: ${errorMessage(err)}`);
  }

  private test(p: Predicate, type: EventType, e: AnyEvent): boolean {
    switch (type) {
      case 'create':
        return p.create(e as CreateEvent);
      case 'update':
        return p.update(e as UpdateEvent);
      case 'delete':
        return p.delete(e as DeleteEvent);
      case 'generic':
        return p.generic(e as GenericEvent);
    }
  }

  private emit(eventType: EventType, obj: KubeObject, keys: string[], filteredBy?: string, panic?: string): void {
    this.probe.emit({
      kind: 'handler.event',
      controller: this.o.controller ?? '',
      handler: this.o.handler.name,
      eventType,
      ref: objectRef(obj, this.o.gvk ?? ''),
      keys,
      ...(filteredBy !== undefined ? { filteredBy } : {}),
      ...(panic !== undefined ? { panic } : {}),
    });
  }
}

function isObject(obj: unknown): obj is KubeObject {
  return typeof obj === 'object' && obj !== null && typeof (obj as { metadata?: unknown }).metadata === 'object';
}
