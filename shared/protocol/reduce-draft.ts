// Copy-on-write bookkeeping for reduce(): the reducer never mutates the view it is given. The first touch
// of an object within one batch clones it shallowly; later touches in the same batch reuse that clone. So a
// batch costs what it touches, untouched parts keep their identity (cheap React memoisation), and the input
// view stays valid for whoever still holds it.
import { dict } from './records';
import type { ControllerView, InformerView, RuntimeView } from './view';

export class Draft {
  readonly view: RuntimeView;
  /**
   * Objects copied for writing (own, child, childRecord). Strong Sets, not WeakSets: they live for one
   * reduce() call (or one private ReduceSession), and weak collections cost the garbage collector extra work.
   */
  private readonly fresh: Set<object>;
  /**
   * Objects created in this batch. The same Set as `fresh` without a session; with one, kept apart so the
   * session carries only the view's long-lived containers, not every record and point ever made.
   */
  private readonly madeHere: Set<object>;
  /** Arrays to cut back to their cap once the batch is applied (cheaper than trimming per push). */
  private readonly rings = new Map<unknown[], number>();
  /** Controllers and informers touched by this batch, for the finalize pass. */
  readonly touchedControllers = new Set<string>();
  readonly touchedInformers = new Set<string>();
  /**
   * Key eviction's view of a writable keys record's own keys in enumeration order, kept up to date as keys
   * are added and evicted within this batch (reduce-controller.ts), so an eviction does not list a record of
   * thousands of keys again after the one before it.
   */
  readonly keyOrders = new Map<object, string[]>();

  /**
   * The controller and the informer the last event touched, already writable and in place in the view: a
   * stream of events mostly names the one it named before, and finding it again took a record lookup and
   * two writability checks per event. Only controllerOf and informerOf set and read these.
   */
  lastController: { name: string; view: ControllerView } | undefined;
  lastInformer: { id: string; view: InformerView } | undefined;

  /**
   * Objects the batch before this one created, still writable with a ReduceSession: most keys, points and
   * entries are touched again by the next batch (a key's get and done often come after the flush that saw
   * its add), and copying them then was most of what a session still copied.
   */
  private readonly madeBefore: Set<object> | undefined;

  /**
   * `fresh`: objects already writable, kept by a ReduceSession from earlier batches; `madeBefore`: those the
   * session's previous batch created.
   */
  constructor(view: RuntimeView, fresh?: Set<object>, madeBefore?: Set<object>) {
    this.fresh = fresh ?? new Set();
    this.madeHere = fresh ? new Set() : this.fresh;
    this.madeBefore = fresh ? madeBefore : undefined;
    this.view = this.own(view);
  }

  /** Objects created during this batch (for the session to keep writable in the next one). */
  get created(): Set<object> {
    return this.madeHere;
  }

  /** Marks an object created during this batch as writable. */
  made<T extends object>(o: T): T {
    this.madeHere.add(o);
    return o;
  }

  private writable(o: object): boolean {
    if (this.fresh.has(o)) return true;
    if (this.madeHere === this.fresh) return false;
    return this.madeHere.has(o) || (this.madeBefore !== undefined && this.madeBefore.has(o));
  }

  own<T extends object>(o: T): T {
    if (this.writable(o)) return o;
    // A null-prototype record (keyed by data, see records.ts) stays one: a spread would give it a prototype.
    const c = (Array.isArray(o) ? o.slice() : Object.getPrototypeOf(o) === null ? copyRecord(o) : { ...o }) as T;
    this.fresh.add(c);
    return c;
  }

  /** Makes parent[k] writable (parent must already be) and returns it. */
  child<P extends object, K extends keyof P>(parent: P, k: K): NonNullable<P[K]> {
    const v = parent[k] as NonNullable<P[K]> & object;
    const c = this.own(v);
    if (c !== v) parent[k] = c;
    return c;
  }

  /**
   * Like child(), for a record keyed by runtime data (queue keys, object keys, names). The copy is always
   * null-prototype (records.ts), even when the view came from parsed JSON, so what the reducer reads from it
   * by data is never inherited. Such records can hold thousands of entries; V8 keeps them as hash tables,
   * which a spread copies about half as fast as a loop over their keys (~0.9 ms against ~0.45 ms for 2000
   * keys); the copy runs once per record per batch.
   */
  childRecord<P extends object, K extends keyof P>(parent: P, k: K): NonNullable<P[K]> {
    const v = parent[k] as NonNullable<P[K]> & object;
    if (this.writable(v)) return v;
    const c = copyRecord(v);
    this.fresh.add(c);
    parent[k] = c;
    return c;
  }

  /** view.log, writable: every event is appended to it, so it is looked up once per batch. */
  private logRing: unknown[] | undefined;

  /** Appends to the view's raw log ring (trimmed to limits.maxLogEntries when the batch ends). */
  log(entry: RuntimeView['log'][number]): void {
    let a = this.logRing;
    const cap = this.view.limits.maxLogEntries;
    if (a === undefined || a.length > cap * 2 + 64) a = this.logRing = this.ring(this.view, 'log', cap);
    a.push(entry);
  }

  /** Like child(), for an array that is trimmed to `cap` (oldest first) when the batch ends. */
  ring<P extends object, K extends keyof P>(parent: P, k: K, cap: number): NonNullable<P[K]> {
    const arr = this.child(parent, k);
    const a = arr as unknown as unknown[];
    if (this.rings.get(a) !== cap) this.rings.set(a, cap);
    // Keep a long batch from growing an array without bound before the final trim.
    if (a.length > cap * 2 + 64) a.splice(0, a.length - cap);
    return arr;
  }

  trimRings(): void {
    for (const [a, cap] of this.rings) if (a.length > cap) a.splice(0, a.length - cap);
    this.rings.clear();
  }
}

/** The same own enumerable entries, in the same order, in a null-prototype record. */
function copyRecord<T extends object>(o: T): T {
  const src = o as Record<string, unknown>;
  const c = dict<unknown>();
  for (const k of Object.keys(src)) c[k] = src[k];
  return c as T;
}
