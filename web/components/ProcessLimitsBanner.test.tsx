// A process that passed the dashboard's limits is named with what was dropped, above every panel.
import { describe, expect, it } from 'vitest';
import type { RuntimeEvent, StampedEvent } from '../../shared/protocol/events';
import { reduce } from '../../shared/protocol/reduce';
import { createView } from '../../shared/protocol/view';
import { renderText } from '../fixtures/render';
import { ProcessLimitsBanner } from './ProcessLimitsBanner';

const run = (events: RuntimeEvent[]) =>
  reduce(
    createView(),
    events.map((e, i) => ({ ...e, seq: i + 1, ts: 1000 + i }) as StampedEvent),
  );

describe('ProcessLimitsBanner', () => {
  it('names each limit a process passed and how much it dropped', () => {
    const view = run([
      { kind: 'bridge.process', process: 'a', address: 'a:7071', phase: 'connected' },
      { kind: 'bridge.dropped', process: 'a', dropped: 7, total: 7, cause: 'controllers', cap: 256 },
      { kind: 'bridge.dropped', process: 'a', dropped: 1, total: 1, cause: 'seq' },
    ]);
    const text = renderText(<ProcessLimitsBanner view={view} />);
    expect(text).toContain('dropped 7 events from process a: it names more than 256 controllers');
    expect(text).toContain('dropped 1 event from process a: a seq that is not a positive integer');
  });

  it('says nothing while no limit was hit', () => {
    const view = run([{ kind: 'bridge.process', process: 'a', address: 'a:7071', phase: 'connected' }]);
    expect(renderText(<ProcessLimitsBanner view={view} />)).toBe('');
  });
});
