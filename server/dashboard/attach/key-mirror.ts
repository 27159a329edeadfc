// The cache browser for attached processes: the keys each informer's store holds, kept from the indexer
// events the process streams (its side handler sees every add and delete). Objects themselves stay in the
// process, so get() has none to show.
import type { RuntimeEvent } from '../../../shared/protocol/events';
import type { Probe } from '../../runtime/instrumentation/probe';
import type { ObjectSource } from '../recorder/object-source';

export class KeyMirror implements Probe, ObjectSource {
  private readonly keysByInformer = new Map<string, Set<string>>();

  constructor(private readonly next: Probe) {}

  get enabled(): boolean {
    return this.next.enabled;
  }

  emit(ev: RuntimeEvent): void {
    if (ev.kind === 'indexer.update') {
      let keys = this.keysByInformer.get(ev.informer);
      if (!keys) this.keysByInformer.set(ev.informer, (keys = new Set()));
      if (ev.op === 'delete') keys.delete(ev.key);
      else keys.add(ev.key);
    }
    this.next.emit(ev);
  }

  get(): undefined {
    return undefined;
  }

  keys(informer: string): string[] {
    return [...(this.keysByInformer.get(informer) ?? [])];
  }
}
