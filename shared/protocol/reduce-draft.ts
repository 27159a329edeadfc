// Copy-on-write bookkeeping for reduce(): the reducer never mutates the view it is given. The first touch
// of an object within one batch clones it shallowly; later touches in the same batch reuse that clone. So a
// batch costs what it touches, untouched parts keep their identity (cheap React memoisation), and the input
// view stays valid for whoever still holds it.
import type { RuntimeView } from './view';

export class Draft {
  readonly view: RuntimeView;
  /**
   * Objects writable in this batch. A strong Set, not a WeakSet: the draft lives for one reduce() call, and
   * weak collections cost the garbage collector extra work on every cycle while they are alive.
   */
  private readonly fresh = new Set<object>();
  /** Arrays to cut back to their cap once the batch is applied (cheaper than trimming per push). */
  private readonly rings = new Map<unknown[], number>();
  /** Controllers and informers touched by this batch, for the finalize pass. */
  readonly touchedControllers = new Set<string>();
  readonly touchedInformers = new Set<string>();

  constructor(view: RuntimeView) {
    this.view = this.own(view);
  }

  /** Marks an object created during this batch as writable. */
  made<T extends object>(o: T): T {
    this.fresh.add(o);
    return o;
  }

  own<T extends object>(o: T): T {
    if (this.fresh.has(o)) return o;
    const c = (Array.isArray(o) ? o.slice() : { ...o }) as T;
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
