// @vitest-environment happy-dom
// The Indexer's key list catches up with the live count: when a create or delete moves the count away from the
// listed keys, the list is asked again within a second instead of at the next periodic refresh; a large cache
// keeps its slower refresh.
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InspectRequest, InspectResult } from '../../../shared/protocol/socket';
import type { RuntimeView } from '../../../shared/protocol/view';
import type { Connection } from '../../client/connection';
import { ConnectionContext, StoreContext } from '../../client/hooks';
import { recordedView } from '../../fixtures/recorded-view';
import { storeWith } from '../../fixtures/render';
import { Indexer } from './Indexer';

/** A connection that answers cache inspections with `total` keys and counts them. */
function fakeConnection(total: () => number) {
  const asked: InspectRequest[] = [];
  const conn = {
    canSend: () => true,
    inspect: (req: InspectRequest) => {
      asked.push(req);
      if (req.target !== 'cache') return Promise.resolve({ ok: false as const, error: 'not in this test' });
      const n = total();
      const keys = Array.from({ length: Math.min(n, 50) }, (_, i) => `demo/cm-${String(i).padStart(5, '0')}`);
      const result: InspectResult = { target: 'cache', informer: req.informer, keys, total: n };
      return Promise.resolve({ ok: true as const, result });
    },
  };
  return { conn: conn as unknown as Connection, cacheAsks: () => asked.filter((r) => r.target === 'cache').length };
}

/** The fixture view with the focused informer's live count set to `size`. */
function withStoreSize(size: number): { view: RuntimeView; informer: string } {
  const view = recordedView();
  const informer = Object.keys(view.informers)[0]!;
  view.informers[informer]!.storeSize = size;
  return { view, informer };
}

async function settle(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('Indexer key list', () => {
  function mount(size: number, total: () => number) {
    const { view, informer } = withStoreSize(size);
    const { conn, cacheAsks } = fakeConnection(total);
    render(
      <ConnectionContext.Provider value={conn}>
        <StoreContext.Provider value={storeWith(view)}>
          <Indexer view={view} route={{ panel: 'indexer', informer }} now={view.lastTs} />
        </StoreContext.Provider>
      </ConnectionContext.Provider>,
    );
    return cacheAsks;
  }

  it('asks again within a second while the listed total differs from the live count, then waits for the refresh', async () => {
    let total = 14;
    const cacheAsks = mount(13, () => total);
    await settle(0);
    expect(cacheAsks()).toBe(1);
    expect(screen.getByText('14 in store')).toBeTruthy();
    await settle(1000);
    expect(cacheAsks()).toBe(2);
    // The next answer agrees with the live count: no more early asks until the periodic refresh (3 s).
    total = 13;
    await settle(1000);
    expect(cacheAsks()).toBe(3);
    expect(screen.getByText('13 in store')).toBeTruthy();
    await settle(2000);
    expect(cacheAsks()).toBe(3);
    await settle(1000);
    expect(cacheAsks()).toBe(4);
  });

  it('does not ask early when the list agrees with the count, nor for a cache too large to resend often', async () => {
    const agreeing = mount(14, () => 14);
    await settle(2500);
    expect(agreeing()).toBe(1);
    cleanup();
    const large = mount(9_000, () => 9_001);
    await settle(2500);
    expect(large()).toBe(1);
  });
});
