// A --replay file is input like any other: names of Object.prototype members are ordinary names, an event the
// reducer cannot apply is dropped and reported, and a header with nonsense limits is refused by name.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventsNaming, PROTOTYPE_NAMES } from '../../../shared/protocol/testing/prototype-names';
import { createView } from '../../../shared/protocol/view';
import { FakeClock } from '../../runtime/testing/fake-clock';
import { openReplay } from './open-replay';

const dir = mkdtempSync(join(tmpdir(), 'cs-replay-crafted-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function header(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    type: 'header',
    format: 'controller-scope/recording',
    protocolVersion: 1,
    createdAt: 0,
    serverEpoch: 'e',
    cluster: { kind: 'sandbox', writable: true },
    controllers: [...PROTOTYPE_NAMES],
    viewLimits: createView().limits,
    ...over,
  };
}

function write(name: string, lines: unknown[]): string {
  const file = join(dir, name);
  writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
  return file;
}

describe('a crafted --replay file', () => {
  it('replays names such as constructor and __proto__ as names, and reports an event it cannot apply', async () => {
    const lines: unknown[] = [header()];
    let seq = 0;
    for (const name of PROTOTYPE_NAMES) {
      for (const ev of eventsNaming(name, undefined)) lines.push({ ...ev, seq: ++seq, ts: 1000 + seq });
    }
    lines.push({ kind: 'queue.add', queue: 'constructor', key: 'x', seq: ++seq, ts: 1000 + seq });
    // A literal "__proto__" member in the JSON text, as a hand-made file can have.
    lines.push(
      `{"kind":"queue.add","queue":"__proto__","key":"__proto__","__proto__":{"polluted":1},` +
        `"cause":{"type":"manual"},"queued":true,"depth":{"ready":1,"waiting":0,"processing":0},` +
        `"seq":${++seq},"ts":${1000 + seq}}`,
    );
    const file = write('crafted.jsonl', lines);
    const clock = new FakeClock();
    const replay = await openReplay({ file, clock, speed: 'max', autoplay: false });
    replay.source.seek(seq);
    const v = replay.recorder.view;
    for (const name of PROTOTYPE_NAMES) {
      expect(Object.hasOwn(v.controllers, name)).toBe(true);
      expect(v.controllers[name]?.keys[name]?.reconciles).toBe(1);
      expect(v.informers[name]?.id).toBe(name);
    }
    expect(v.controllers.__proto__?.keys.__proto__?.adds).toBe(2);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(v.droppedEvents).toBe(1);
    expect(v.reducerErrors?.[0]?.kind).toBe('queue.add');
    expect(JSON.parse(JSON.stringify(v)).controllers.constructor.name).toBe('constructor');
  });

  it('refuses view limits that are not non-negative numbers, naming the limit', async () => {
    const limits = { ...createView().limits, maxLogEntries: 'lots' };
    const file = write('limits.jsonl', [header({ viewLimits: limits })]);
    await expect(openReplay({ file, autoplay: false })).rejects.toThrow(/viewLimits\.maxLogEntries/);
    const neg = write('neg.jsonl', [header({ viewLimits: { ...createView().limits, maxKeysPerController: -1 } })]);
    await expect(openReplay({ file: neg, autoplay: false })).rejects.toThrow(/maxKeysPerController/);
  });

  it('refuses a header whose controllers are not a list of names', async () => {
    const file = write('ctl.jsonl', [header({ controllers: { constructor: 1 } })]);
    await expect(openReplay({ file, autoplay: false })).rejects.toThrow(/controllers/);
  });
});
