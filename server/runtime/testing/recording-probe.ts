// A probe that keeps every event, for tests that assert on what a block reported.
import type { RuntimeEvent, RuntimeEventKind } from '../../../shared/protocol/events';
import type { Probe } from '../instrumentation/probe';

export class RecordingProbe implements Probe {
  readonly enabled = true;
  readonly events: RuntimeEvent[] = [];

  emit(event: RuntimeEvent): void {
    this.events.push(event);
  }

  ofKind<K extends RuntimeEventKind>(kind: K): Extract<RuntimeEvent, { kind: K }>[] {
    return this.events.filter((e): e is Extract<RuntimeEvent, { kind: K }> => e.kind === kind);
  }

  clear(): void {
    this.events.length = 0;
  }
}
