import { describe, expect, it } from 'vitest';
import type { ModuleLifecycleEvent, StampedEvent } from './events';
import { reduce } from './reduce';
import { createView } from './view';

let seq = 0;
const ev = (e: Omit<ModuleLifecycleEvent, 'kind' | 'file'>, file = 'controller.ts'): StampedEvent => ({
  kind: 'module.lifecycle',
  file,
  ...e,
  seq: ++seq,
  ts: 1_000 + seq,
});

describe('module.lifecycle in the view', () => {
  it('a reload that works: marked where it began, the new generation running', () => {
    const v = reduce(createView(), [
      ev({ phase: 'loading', generation: 1 }),
      ev({ phase: 'loaded', generation: 1, controllers: ['web'] }),
      ev({ phase: 'loading', generation: 2 }),
      ev({ phase: 'stopped', generation: 1 }),
      ev({ phase: 'loaded', generation: 2, controllers: ['web'] }),
    ]);
    const m = v.modules[0];
    expect(m).toMatchObject({ phase: 'loaded', generation: 2, running: 2, controllers: ['web'] });
    expect(m?.reloads).toEqual([{ seq: seq - 2, ts: 1_000 + seq - 2, generation: 2, outcome: 'loaded' }]);
    expect(v.notable.map((n) => n.text)).toEqual([
      'controller.ts: loaded (web)',
      'controller.ts: reloading after a change (generation 2)',
      'controller.ts: loaded (web)',
    ]);
  });

  it('a reload that fails keeps the previous generation running and says where it broke', () => {
    const v = reduce(createView(), [
      ev({ phase: 'loading', generation: 1 }, 'a.ts'),
      ev({ phase: 'loaded', generation: 1, controllers: ['a'] }, 'a.ts'),
      ev({ phase: 'loading', generation: 2 }, 'a.ts'),
      ev(
        {
          phase: 'failed',
          generation: 2,
          error: { message: 'a.ts failed to load: x', at: { file: '/p/a.ts', line: 3 } },
        },
        'a.ts',
      ),
      ev({ phase: 'loading', generation: 1 }, 'b.ts'),
    ]);
    expect(v.modules.map((m) => m.file)).toEqual(['a.ts', 'b.ts']);
    expect(v.modules[0]).toMatchObject({ phase: 'failed', generation: 2, running: 1, controllers: [] });
    expect(v.modules[0]?.reloads).toEqual([
      expect.objectContaining({ generation: 2, outcome: 'failed', error: 'a.ts failed to load: x' }),
    ]);
    expect(v.notable.at(-1)).toMatchObject({ level: 'error', text: 'a.ts: a.ts failed to load: x (/p/a.ts:3)' });
  });

  it('stopping at exit leaves the module stopped with nothing running', () => {
    const v = reduce(createView(), [
      ev({ phase: 'loading', generation: 1 }),
      ev({ phase: 'loaded', generation: 1, controllers: ['web'] }),
      ev({ phase: 'stopped', generation: 1 }),
    ]);
    expect(v.modules[0]).toMatchObject({ phase: 'stopped', generation: 1 });
    expect(v.modules[0]?.running).toBeUndefined();
  });
});
