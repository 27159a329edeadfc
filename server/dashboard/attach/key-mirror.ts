// The cache browser for an attached process: the keys each informer's store holds, kept from the indexer
// events the process streams, and the cached copies themselves, fetched from the process when an object
// changes (one fetch in flight per object, at most MAX_OBJECTS kept) so inspect can answer synchronously.
import type { KubeObject } from '../../../shared/models/object';
import type { RuntimeEvent } from '../../../shared/protocol/events';
import type { Probe } from '../../runtime/instrumentation/probe';
import type { ObjectSource } from '../recorder/object-source';
import { BRIDGE_LIMITS } from '../../../shared/protocol/bridge-limits';
import { splitLaneName } from './lanes';
import { DropReport } from './drop-report';

const MAX_OBJECTS = 2000;

/** Reads one object from the process: its informer id (without lane) and store key. */
export type ObjectFetcher = (informer: string, key: string) => Promise<KubeObject | undefined>;

export class KeyMirror implements Probe, ObjectSource {
  private readonly keysByInformer = new Map<string, Set<string>>();
  private readonly objects = new Map<string, KubeObject>();
  private readonly inFlight = new Set<string>();
  private readonly again = new Set<string>();
  /** Keys held across all informers: at most BRIDGE_LIMITS.keys, the rest counted and not listed. */
  private keyCount = 0;
  private process = '';
  private readonly drops = new DropReport(
    (ev) => this.next.emit(ev),
    () => this.process,
  );

  constructor(
    private readonly next: Probe,
    private readonly fetcher?: ObjectFetcher,
  ) {}

  get enabled(): boolean {
    return this.next.enabled;
  }

  emit(ev: RuntimeEvent): void {
    // A new run of the process (or of one informer) lists everything again: keys of the old run that are
    // not listed again were deleted meanwhile, and no delete event will ever say so.
    if (ev.kind === 'bridge.process') this.process = ev.process;
    if (ev.kind === 'bridge.process' && ev.phase === 'connected') this.forget();
    else if (ev.kind === 'informer.lifecycle' && ev.phase === 'started') {
      this.keyCount -= this.keysByInformer.get(ev.informer)?.size ?? 0;
      this.keysByInformer.delete(ev.informer);
    }
    if (ev.kind === 'indexer.update') {
      let keys = this.keysByInformer.get(ev.informer);
      if (!keys) this.keysByInformer.set(ev.informer, (keys = new Set()));
      const id = objectId(ev.ref.gvk, ev.ref.namespace, ev.ref.name);
      if (ev.op === 'delete') {
        if (keys.delete(ev.key)) this.keyCount--;
        this.objects.delete(id);
      } else if (!keys.has(ev.key) && this.keyCount >= BRIDGE_LIMITS.keys) {
        // The event still reaches the view; only the cache browser's listing stops growing.
        this.drops.count('keys');
      } else {
        if (!keys.has(ev.key)) this.keyCount++;
        keys.add(ev.key);
        if (this.objects.has(id) || this.objects.size < MAX_OBJECTS)
          this.refresh(id, splitLaneName(ev.informer).name, ev.key);
      }
    }
    this.next.emit(ev);
  }

  /** Reports the keys not listed so far now (on close, and for tests) instead of at the next interval. */
  flushDrops(): void {
    this.drops.flush();
    this.drops.stop();
  }

  private forget(): void {
    this.keysByInformer.clear();
    this.keyCount = 0;
    this.objects.clear();
  }

  private refresh(id: string, informer: string, key: string): void {
    if (!this.fetcher) return;
    if (this.inFlight.has(id)) {
      this.again.add(id);
      return;
    }
    this.inFlight.add(id);
    this.fetcher(informer, key)
      .then(
        (obj) => {
          if (obj) this.objects.set(id, obj);
          else this.objects.delete(id);
        },
        () => undefined,
      )
      .finally(() => {
        this.inFlight.delete(id);
        if (this.again.delete(id)) this.refresh(id, informer, key);
      });
  }

  get(gvk: string, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.objects.get(objectId(gvk, namespace, name));
  }

  keys(informer: string): string[] {
    return [...(this.keysByInformer.get(informer) ?? [])];
  }
}

function objectId(gvk: string, namespace: string | undefined, name: string): string {
  return `${gvk}|${namespace ?? ''}|${name}`;
}
