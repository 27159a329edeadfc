import { describe, expect, it } from 'vitest';
import { SingleFileTracker } from './synctrack';

describe('synctrack_test', () => {
  const table: [boolean, boolean, boolean, boolean, boolean][] = [
    // upstreamSynced, syncedBeforeFinish, start, finish → expect
    [false, false, true, true, false],
    [true, false, true, false, false],
    [true, true, true, false, false],
    [false, false, true, false, false],
    [true, false, true, true, true],
    [true, true, true, true, true],
  ];
  for (const [upstream, before, start, finish, want] of table) {
    it(`TestSingleFileTracker upstream=${upstream} syncedBeforeFinish=${before} start=${start} finish=${finish}`, () => {
      const t = new SingleFileTracker(() => upstream);
      if (start) t.start();
      if (before) expect(t.hasSynced()).toBe(false);
      if (finish) t.finished();
      expect(t.hasSynced()).toBe(want);
    });
  }

  it('TestSingleFileTracker counting: 100 starts need 100 finishes; an extra finish throws; synced is sticky', () => {
    let upstream = false;
    const t = new SingleFileTracker(() => upstream);
    for (let i = 0; i < 100; i++) t.start();
    for (let i = 0; i < 99; i++) t.finished();
    upstream = true;
    expect(t.hasSynced()).toBe(false);
    t.finished();
    expect(t.hasSynced()).toBe(true);
    expect(() => t.finished()).toThrow(/synctrack: negative counter/);
    expect(t.hasSynced()).toBe(true);
  });
});
