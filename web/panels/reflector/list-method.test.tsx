// The reflector story Learn and the Reflector panel tell is the one the informer took, from its events:
// a WatchList stream is not told as LIST then WATCH, and a producer that does not say gets no claim.
import { describe, expect, it } from 'vitest';
import type { ListMethod, RuntimeEvent, StampedEvent } from '../../../shared/protocol/events';
import { reduce } from '../../../shared/protocol/reduce';
import type { RuntimeView } from '../../../shared/protocol/view';
import { recordedView } from '../../fixtures/recorded-view';
import { renderText, storeWith } from '../../fixtures/render';
import { Learn } from '../learn/Learn';
import { Reflector } from './Reflector';
import { sessionRows } from './reflector-series';

const base = recordedView();

/** A relist of v1/Pod by `method` on top of `view`, ending well unless `error`. */
function relisted(method: ListMethod, error?: string, view: RuntimeView = base): RuntimeView {
  let seq = view.lastSeq;
  const evs: RuntimeEvent[] = [
    {
      kind: 'reflector.listBegin',
      informer: 'v1/Pod',
      resourceVersion: '150',
      relist: true,
      cause: 'watch expired (410)',
      method,
    },
    {
      kind: 'reflector.listEnd',
      informer: 'v1/Pod',
      resourceVersion: '160',
      items: error ? 0 : 8,
      pages: 1,
      durationMs: 2,
      relist: true,
      ...(error ? { error } : {}),
    },
  ];
  return reduce(
    view,
    evs.map((e) => ({ ...e, seq: ++seq, ts: view.lastTs }) as StampedEvent),
  );
}

const page = (view: RuntimeView, which: 'learn' | 'reflector') => {
  const props = { view, now: view.lastTs, route: { panel: which, informer: 'v1/Pod' } as const };
  return renderText(which === 'learn' ? <Learn {...props} /> : <Reflector {...props} />, storeWith(view));
};

describe('how the reflector got its state', () => {
  it('a WatchList stream is told as one streaming WATCH, in Learn and in the Reflector panel', () => {
    const view = relisted('watchList');
    expect(view.informers['v1/Pod']?.listMethod).toBe('watchList');
    for (const which of ['learn', 'reflector'] as const) {
      const t = page(view, which);
      expect(t, which).toContain('got its state from a WatchList stream');
      expect(t, which).toContain('No LIST was made');
      expect(t, which).not.toContain('then opens a WATCH');
    }
    expect(page(view, 'reflector')).toContain('Stream syncs / relists');
    expect(sessionRows(view.informers['v1/Pod'] as never, view.lastTs)[0]?.kind).toBe('RELIST (stream)');
  });

  it('a LIST then WATCH is told as such', () => {
    const t = page(relisted('list'), 'reflector');
    expect(t).toContain('LIST ed every object of its kind (in pages), then opened a WATCH');
    expect(t).toContain('LIST, then WATCH');
  });

  it('a failed stream does not count: the method is the one that got the state', () => {
    const view = relisted('list');
    expect(relisted('watchList', 'stream refused', view).informers['v1/Pod']?.listMethod).toBe('list');
  });

  it('claims neither when the producer does not report it', () => {
    expect(base.informers['v1/Pod']?.listMethod).toBeUndefined();
    const t = page(base, 'learn');
    expect(t).toContain('this one did not report which');
  });
});
