// A controller of a process that went away (kill -9 sends no last events) says it is gone and that its totals
// are what arrived before, not a complete count. The runtime under test cannot be killed inside a unit test,
// so the bridge's events are scripted as attach reports them (test/truth checks the real kill end to end).
import { describe, expect, it } from 'vitest';
import { GONE_COUNTS_CAVEAT } from '../../../shared/protocol/liveness';
import { reduce } from '../../../shared/protocol/reduce';
import { createView } from '../../../shared/protocol/view';
import { EventScript } from '../../../shared/protocol/testing/synthetic';
import { renderText, storeWith } from '../../fixtures/render';
import { Controller } from './Controller';

function viewOf(goneAtEnd: boolean) {
  const s = new EventScript();
  const process = 'op-1';
  s.emit({ kind: 'bridge.process', process, address: '127.0.0.1:7071', phase: 'connected' });
  s.emit({ kind: 'manager.lifecycle', phase: 'started', process });
  s.emit({ kind: 'controller.lifecycle', controller: 'mirror', phase: 'started', workers: 1 });
  if (goneAtEnd) {
    s.advance(10);
    s.emit({ kind: 'bridge.process', process, address: '127.0.0.1:7071', phase: 'gone', reason: 'connection refused' });
  }
  return reduce(createView(), s.events);
}

describe('a controller whose process is gone', () => {
  const route = { panel: 'controller' as const, controller: 'mirror' };
  it('says so, and that its counts may be short', () => {
    const v = viewOf(true);
    expect(v.controllers['mirror']?.process).toBe('op-1');
    const t = renderText(<Controller view={v} now={v.lastTs} route={route} />, storeWith(v));
    expect(t).toContain('gone: process op-1 is gone: connection refused');
    expect(t).toContain(GONE_COUNTS_CAVEAT);
    expect(t).toContain('seen before it went');
  });

  it('reads as a plain total while it runs', () => {
    const v = viewOf(false);
    const t = renderText(<Controller view={v} now={v.lastTs} route={route} />, storeWith(v));
    expect(t).not.toContain(GONE_COUNTS_CAVEAT);
    expect(t).toContain('0 total');
  });
});
