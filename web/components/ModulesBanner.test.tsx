import { describe, expect, it } from 'vitest';
import type { ModuleLifecycleEvent, StampedEvent } from '../../shared/protocol/events';
import { reduce } from '../../shared/protocol/reduce';
import { createView } from '../../shared/protocol/view';
import { renderText } from '../fixtures/render';
import { ModulesBanner } from './ModulesBanner';
import { moduleReloadMarkers } from './timeline-markers';

let seq = 0;
const ev = (file: string, e: Omit<ModuleLifecycleEvent, 'kind' | 'file'>): StampedEvent => ({
  kind: 'module.lifecycle',
  file,
  ...e,
  seq: ++seq,
  ts: 10_000 + seq * 1_000,
});

// Synthetic: module reloads (and a failed one) need user modules edited on disk mid-run; the recording of
// the example controllers runs no user module.
const view = reduce(createView(), [
  ev('src/web.ts', { phase: 'loading', generation: 1 }),
  ev('src/web.ts', { phase: 'loaded', generation: 1, controllers: ['website'] }),
  ev('src/web.ts', { phase: 'loading', generation: 2 }),
  ev('src/web.ts', { phase: 'stopped', generation: 1 }),
  ev('src/web.ts', { phase: 'loaded', generation: 2, controllers: ['website'] }),
  ev('src/broken.ts', { phase: 'loading', generation: 1 }),
  ev('src/broken.ts', {
    phase: 'failed',
    generation: 1,
    error: {
      message: 'src/broken.ts has no setup function: it exports nothing',
      expected: 'a setup function that takes the manager',
    },
  }),
  ev('src/typo.ts', { phase: 'loading', generation: 1 }),
  ev('src/typo.ts', { phase: 'loaded', generation: 1, controllers: ['typo'] }),
  ev('src/typo.ts', { phase: 'loading', generation: 2 }),
  ev('src/typo.ts', {
    phase: 'failed',
    generation: 2,
    error: {
      message: 'src/typo.ts failed to load: Unexpected ";"',
      at: { file: '/p/src/typo.ts', line: 7, column: 3 },
    },
  }),
]);

describe('ModulesBanner', () => {
  it('shows each failed module with its message, place, what was expected and what keeps running', () => {
    const text = renderText(<ModulesBanner view={view} now={view.lastTs} />);
    expect(text).toContain(
      'Your controller did not start: src/broken.ts has no setup function: it exports nothing. Expected a setup function that takes the manager.',
    );
    expect(text).toContain(
      'Your controller did not start (reload 2): src/typo.ts failed to load: Unexpected ";" at /p/src/typo.ts:7:3 .',
    );
    expect(text).toContain('Generation 1 keeps running until the file loads again.');
  });

  it('lists running modules with their controllers, generation and last reload', () => {
    const text = renderText(<ModulesBanner view={view} now={view.lastTs} />);
    expect(text).toMatch(/Your controllers · web\.ts website generation 2, reloaded 8\.00s ago/);
  });

  it('renders nothing without user modules', () => {
    expect(renderText(<ModulesBanner view={createView()} now={0} />).trim()).toBe('');
  });

  it('marks every reload on the charts, in time order', () => {
    expect(moduleReloadMarkers(view.modules)).toEqual([
      { t: 13_000, label: 'web.ts reloaded (gen 2)' },
      // The second generation of typo.ts never ran: a failed reload is never marked like a good one.
      { t: 20_000, tone: 'err', label: 'typo.ts reload failed (gen 2): src/typo.ts failed to load: Unexpected ";"' },
    ]);
  });
});
