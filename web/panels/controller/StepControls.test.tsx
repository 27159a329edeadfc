// The step debugger over a live-like view and the server's pushed step state.
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { StoreContext } from '../../client/hooks';
import type { StepState } from '../../../shared/protocol/commands';
import type { ServerStatus } from '../../../shared/protocol/socket';
import type { RuntimeView } from '../../../shared/protocol/view';
import { App } from '../../App';
import { recordedView } from '../../fixtures/recorded-view';
import { renderText, storeWith } from '../../fixtures/render';
import { Controller } from './Controller';
import { StepControls } from './StepControls';
import {
  currentStepState,
  describeBreakpoint,
  describeHolder,
  describeOwners,
  heldByOther,
  heldNow,
  lastStepText,
} from './step-state';

const base: StepState = { controller: 'flaky', holding: false, held: 0, breakpoints: { keys: [], onError: false } };

function withStatus(view: RuntimeView, step: StepState) {
  const store = storeWith(view);
  const status: ServerStatus = {
    recording: { paused: false, evicted: 0 },
    steppers: { [step.controller]: step },
    faults: [],
  };
  store.setServerStatus(status);
  return store;
}

describe('step debugger state', () => {
  it("never reads a requeue's answer as a step state (it blanked the app)", () => {
    expect(currentStepState('flaky', undefined, { controller: 'flaky', key: 'demo/a' })).toBeUndefined();
    expect(currentStepState('flaky', undefined, base)).toBe(base);
    expect(currentStepState('flaky', undefined, { ...base, controller: 'other' })).toBeUndefined();
  });

  it('counts held keys from the live queue, not from the last status push', () => {
    const view = recordedView();
    const c = view.controllers.flaky;
    if (!c) throw new Error('fixture has no flaky controller');
    const stale: StepState = { ...base, holding: true, held: 1, holders: [{ key: 'demo/x', worker: 0 }] };
    expect(heldNow(stale, { ...c, depth: { ready: 20, waiting: 3, processing: 0 } })).toBe(21);
    expect(heldNow({ ...stale, holding: false }, c)).toBe(0);
  });

  it('says which key a step released and what its reconcile did', () => {
    const view = recordedView();
    const c = view.controllers.flaky;
    const [key, k] = Object.entries(c?.keys ?? {}).find(([, kv]) => kv.lastReconcile?.endTs !== undefined) ?? [];
    if (!key || !k?.lastReconcile) throw new Error('fixture has no finished reconcile');
    const t = lastStepText({ ...base, holding: true, lastReleased: { key, worker: 2 } }, c);
    expect(t).toContain(`Released ${key} to worker 2`);
    expect(t).toContain(`attempt ${k.lastReconcile.attempt} → ${k.lastReconcile.outcome}`);
  });

  it('describes conditional breakpoints in words', () => {
    expect(describeBreakpoint({ id: 'bp1', enabled: true, hits: 0, key: 'demo/web-*', minAttempt: 3 })).toBe(
      'before demo/web-* reconciles, attempt ≥ 3',
    );
    expect(describeBreakpoint({ id: 'bp2', enabled: true, hits: 1, outcome: 'anyError' })).toBe(
      'after any key ends in an error (error, terminalError or panic)',
    );
  });
});

describe('step debugger card', () => {
  it('renders a server that sends only the older breakpoint summary', () => {
    const view = recordedView();
    const t = renderText(
      <StepControls controller="flaky" />,
      withStatus(view, { ...base, breakpoints: { keys: ['demo/a'], onError: true } }),
    );
    expect(t).toContain('before demo/a reconciles');
    expect(t).toContain('after any key ends in an error');
  });

  it('lists breakpoints with hits, remove and toggle, and warns that it changes the controller for everyone', () => {
    const view = recordedView();
    const step: StepState = {
      ...base,
      holding: true,
      held: 1,
      list: [
        { id: 'bp1', enabled: true, hits: 2, key: 'demo/*', outcome: 'error' },
        { id: 'bp2', enabled: false, hits: 0, minAttempt: 4 },
      ],
      holders: [{ key: 'demo/x', worker: 1 }],
      pausedAt: { key: 'demo/x', reason: 'key', breakpoint: 'bp1' },
    };
    const t = renderText(<StepControls controller="flaky" />, withStatus(view, step));
    expect(t).toContain('You are changing the controller for everyone');
    expect(t).toContain('bp1 after demo/* ends in error');
    expect(t).toContain('bp2 before any key reconciles, attempt ≥ 4');
    expect(t).toContain('✕ Remove');
    expect(t).toContain('paused before demo/x reconciles (breakpoint bp1): worker 1 holds it');
  });

  it('an empty key box means any key: a focused key is put in the box, never used from behind its placeholder', () => {
    const view = recordedView();
    const empty = renderToString(
      <StoreContext.Provider value={withStatus(view, base)}>
        <StepControls controller="flaky" />
      </StoreContext.Provider>,
    );
    expect(empty).toMatch(/data-testid="step-key"[^>]*value=""|value=""[^>]*data-testid="step-key"/);
    expect(renderText(<StepControls controller="flaky" />, withStatus(view, base))).toContain('for any key');
    const focused = renderToString(
      <StoreContext.Provider value={withStatus(view, base)}>
        <StepControls controller="flaky" focusKey="demo/x" />
      </StoreContext.Provider>,
    );
    expect(focused).toMatch(/value="demo\/x"/);
    expect(focused).not.toMatch(/placeholder="demo\/x"/);
  });

  it('shows the worker holding a key at a breakpoint instead of "idle"', () => {
    const view = recordedView();
    const c = view.controllers.flaky;
    if (!c) throw new Error('fixture has no flaky controller');
    c.workerStates = {};
    const step: StepState = { ...base, holding: true, held: 1, holders: [{ key: 'demo/held-one', worker: 0 }] };
    const t = renderText(
      <Controller view={view} now={view.lastTs} route={{ panel: 'controller', controller: 'flaky' }} />,
      withStatus(view, step),
    );
    expect(t).toContain('demo/held-one held at breakpoint');
    expect(t).toContain('waiting for Next');
  });

  it('says on every panel and in the top bar that a controller is held', () => {
    const view = recordedView();
    const store = withStatus(view, { ...base, holding: true, held: 0 });
    store.setStatus({ state: 'live' });
    for (const hash of ['#/overview', '#/indexer', '#/trace']) {
      const t = renderText(<App serverHash={hash} />, store);
      expect(t).toContain('❚❚ HELD flaky');
      expect(t).toContain('Controller “flaky” is held in step mode for everyone');
    }
  });
});

describe('who holds a controller', () => {
  const bob = { viewer: 'sock-bob', name: 'bob', pinned: false, connected: true, since: Date.UTC(2026, 0, 1, 9, 30) };

  it('tells every viewer who holds it, and asks another viewer to take over', () => {
    const held: StepState = { ...base, holding: true, holder: bob };
    expect(describeHolder(held, 'sock-bob')).toBe('Held by you (bob) since 09:30:00 UTC; released if you leave.');
    expect(describeHolder(held, 'sock-alice')).toBe(
      'Held by bob since 09:30:00 UTC. Next, Resume and Hold are theirs: take over to act on it.',
    );
    expect(describeHolder({ ...held, holder: { ...bob, pinned: true, connected: false } }, 'sock-alice')).toContain(
      '(pinned; bob has left)',
    );
    expect(describeHolder({ ...held, holding: false }, 'sock-alice')).toBeUndefined();
    expect(heldByOther(held, 'sock-alice')).toBe(true);
    expect(heldByOther(held, 'sock-bob')).toBe(false);
    expect(describeOwners([bob, { ...bob, viewer: 'sock-me', name: 'me', pinned: true }], 'sock-me')).toBe(
      'bob, you (pinned)',
    );
  });

  it("shows the holder, a Take over button and each breakpoint's owner on the card", () => {
    const view = recordedView();
    const step: StepState = {
      ...base,
      holding: true,
      holder: bob,
      list: [{ id: 'bp1', enabled: true, hits: 0, key: 'demo/a', owners: [bob] }],
    };
    const t = renderText(<StepControls controller="flaky" />, withStatus(view, step));
    expect(t).toContain('Held by bob since 09:30:00 UTC');
    expect(t).toContain('⇄ Take over');
    expect(t).toContain('keep after I leave');
    expect(t).toMatch(/before demo\/a reconciles\s*bob/);
  });
});
