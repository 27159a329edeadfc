import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/models/object';
import { checkInvariants, HOT_RECONCILES, type RunFacts } from './invariants';

const W = { apiVersion: 'x.dev/v1', kind: 'Widget' };
const facts = (more: Partial<RunFacts> = {}): RunFacts => ({
  failing: new Map(),
  panics: [],
  starts: new Map(),
  objects: [],
  ownerAlive: () => true,
  finalizers: new Set(),
  statusWritten: new Set(),
  ...more,
});
const names = (f: RunFacts) => checkInvariants(f).map((v) => v.invariant);

describe('invariants', () => {
  it('hold for a quiet run with consistent objects', () => {
    const w: KubeObject = {
      ...W,
      metadata: { name: 'a', namespace: 'd', generation: 2 },
      status: { observedGeneration: 2 },
    };
    expect(checkInvariants(facts({ objects: [w], statusWritten: new Set(['x.dev/v1/Widget d/a']) }))).toEqual([]);
  });

  it('converged: unsettled, or a key whose last reconcile failed', () => {
    expect(names(facts({ unsettled: '1 reconcile(s) running' }))).toEqual(['converged']);
    expect(names(facts({ failing: new Map([['c d/a', 'boom']]) }))).toEqual(['converged']);
  });

  it('no-panic and no-hot-loop', () => {
    expect(names(facts({ panics: ['reconcile of d/a panicked'] }))).toEqual(['no-panic']);
    const dense = Array.from({ length: HOT_RECONCILES }, (_, i) => 1000 + i * 10);
    const sparse = Array.from({ length: HOT_RECONCILES }, (_, i) => i * 1000);
    expect(names(facts({ starts: new Map([['c d/a', dense]]) }))).toEqual(['no-hot-loop']);
    expect(names(facts({ starts: new Map([['c d/a', sparse]]) }))).toEqual([]);
  });

  it('owner-alive, finalizer-released (only the controller’s finalizers), observed-generation (only where it writes status)', () => {
    const owned: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', namespace: 'd', ownerReferences: [{ ...W, name: 'a', uid: 'u' }] },
    };
    expect(names(facts({ objects: [owned], ownerAlive: () => false }))).toEqual(['owner-alive']);
    const deleting: KubeObject = {
      ...W,
      metadata: {
        name: 'a',
        namespace: 'd',
        deletionTimestamp: '2026-01-01T00:00:00Z',
        finalizers: ['x.dev/cleanup', 'other/f'],
      },
    };
    expect(names(facts({ objects: [deleting], finalizers: new Set(['x.dev/cleanup']) }))).toEqual([
      'finalizer-released',
    ]);
    expect(names(facts({ objects: [deleting] }))).toEqual([]);
    const behind: KubeObject = {
      ...W,
      metadata: { name: 'a', namespace: 'd', generation: 3 },
      status: { observedGeneration: 2 },
    };
    expect(names(facts({ objects: [behind], statusWritten: new Set(['x.dev/v1/Widget d/a']) }))).toEqual([
      'observed-generation',
    ]);
    expect(names(facts({ objects: [behind] }))).toEqual([]);
  });
});
