// Probe reporting for the Reflector (no upstream counterpart: client-go logs where we emit events).
import type { ListMethod, ReflectorState } from '../../../shared/protocol/events-cache';
import type { InformerId, ObjectRef } from '../../../shared/protocol/ids';
import type { Probe } from '../instrumentation/probe';
import type { Clock } from '../util/clock';
import { errorMessage } from '../util/errors';
import { ErrStopRequested, errorCode } from './reflector-errors';

/** Every method is a no-op unless the probe is enabled, so callers need no guard. */
export class ReflectorReporter {
  constructor(
    private readonly probe: Probe,
    private readonly informer: InformerId,
    private readonly clock: Clock,
  ) {}

  state(from: ReflectorState, to: ReflectorState, reason: string): void {
    if (this.probe.enabled) this.probe.emit({ kind: 'reflector.state', informer: this.informer, from, to, reason });
  }

  error(err: unknown): void {
    if (!this.probe.enabled) return;
    const { code, reason } = errorCode(err);
    this.probe.emit({ kind: 'reflector.error', informer: this.informer, code, reason, message: errorMessage(err) });
  }

  listBegin(resourceVersion: string, relist: boolean, cause: string, method: ListMethod): void {
    if (!this.probe.enabled) return;
    this.probe.emit({ kind: 'reflector.listBegin', informer: this.informer, resourceVersion, relist, cause, method });
  }

  listEnd(
    resourceVersion: string,
    relist: boolean,
    start: number,
    items: number,
    pages: number,
    deleted?: number,
    error?: string,
  ): void {
    if (!this.probe.enabled) return;
    this.probe.emit({
      kind: 'reflector.listEnd',
      informer: this.informer,
      resourceVersion,
      items,
      pages,
      durationMs: this.clock.now() - start,
      relist,
      ...(relist && deleted !== undefined ? { deletedFromRelist: deleted } : {}),
      ...(error !== undefined ? { error } : {}),
    });
  }

  watchStart(resourceVersion: string, timeoutSeconds: number): void {
    if (!this.probe.enabled) return;
    this.probe.emit({ kind: 'reflector.watchStart', informer: this.informer, resourceVersion, timeoutSeconds });
  }

  watchEnd(resourceVersion: string, events: number, start: number, reason: string, err: unknown): void {
    if (!this.probe.enabled) return;
    this.probe.emit({
      kind: 'reflector.watchEnd',
      informer: this.informer,
      resourceVersion,
      events,
      durationMs: this.clock.now() - start,
      reason,
      ...(err !== undefined && err !== ErrStopRequested ? { error: errorMessage(err) } : {}),
    });
  }

  event(type: 'ADDED' | 'MODIFIED' | 'DELETED', ref: () => ObjectRef): void {
    if (this.probe.enabled) this.probe.emit({ kind: 'reflector.event', informer: this.informer, type, ref: ref() });
  }

  bookmark(resourceVersion: string): void {
    if (this.probe.enabled) this.probe.emit({ kind: 'reflector.bookmark', informer: this.informer, resourceVersion });
  }

  backoff(delayMs: number): void {
    if (this.probe.enabled) this.probe.emit({ kind: 'reflector.backoff', informer: this.informer, delayMs });
  }

  resync(keys: number): void {
    if (this.probe.enabled) this.probe.emit({ kind: 'reflector.resync', informer: this.informer, keys });
  }
}
