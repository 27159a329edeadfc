// What the dashboard dropped of an attached process's stream (bridge-limits.ts) is counted on the process,
// by cause, and said in a notable entry; a cause the reducer does not know is read as the process's own.
import { describe, expect, it } from 'vitest';
import { BRIDGE_LIMITS } from './bridge-limits';
import type { RuntimeEvent, StampedEvent } from './events';
import { reduce } from './reduce';
import { createView } from './view';

const run = (events: RuntimeEvent[]) =>
  reduce(
    createView(),
    events.map((e, i) => ({ ...e, seq: i + 1, ts: 1000 + i }) as StampedEvent),
  );
const connected: RuntimeEvent = { kind: 'bridge.process', process: 'p', address: 'a:1', phase: 'connected' };

describe('bridge.dropped with a cause', () => {
  it('counts each cause on the process and names the limit', () => {
    const v = run([
      connected,
      { kind: 'bridge.dropped', process: 'p', dropped: 3, total: 3, cause: 'controllers', cap: 256 },
      { kind: 'bridge.dropped', process: 'p', dropped: 2, total: 5, cause: 'controllers', cap: 256 },
      { kind: 'bridge.dropped', process: 'p', dropped: 1, total: 1, cause: 'lineBytes', cap: BRIDGE_LIMITS.lineBytes },
    ]);
    expect(v.processes?.p).toMatchObject({ complete: false, drops: { controllers: 5, lineBytes: 1 } });
    const texts = v.notable.map((n) => n.text);
    expect(texts).toContain('dropped 2 events from process p: it names more than 256 controllers');
    expect(texts).toContain(`dropped 1 event from process p: a line over the ${BRIDGE_LIMITS.lineBytes}-byte cap`);
  });

  it('keys past the cache-browser cap leave the view complete', () => {
    const v = run([connected, { kind: 'bridge.dropped', process: 'p', dropped: 4, total: 4, cause: 'keys' }]);
    expect(v.processes?.p).toMatchObject({ complete: true, drops: { keys: 4 } });
  });

  it('an unknown cause (a forged or newer event) is no property of the process', () => {
    const forged = { kind: 'bridge.dropped', process: 'p', dropped: 1, total: 1, cause: '__proto__' };
    const v = run([connected, forged as unknown as RuntimeEvent]);
    expect(v.processes?.p?.drops).toBeUndefined();
    expect(v.notable.at(-1)?.text).toBe('process p dropped 1 event (its buffer was full)');
  });
});
