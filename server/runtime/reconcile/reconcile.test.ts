// Scenarios from controller-runtime pkg/reconcile/reconcile_test.go.
import { describe, expect, it } from 'vitest';
import { ApiError, isResourceExpired, isTerminalError, terminalError } from '../util/errors';
import type { KubeObject } from '../../../shared/models/object';
import { NULL_LOGGER } from './logger';
import { asReconciler } from './object-reconciler';
import {
  isZeroResult,
  namespacedName,
  reconcileFunc,
  requestFromKey,
  requestKey,
  type ReconcileContext,
} from './reconcile';

const ctx: ReconcileContext = { signal: new AbortController().signal, log: NULL_LOGGER, reconcileID: 'id' };

describe('Result.IsZero', () => {
  it('is true for a missing or empty result', () => {
    expect(isZeroResult(undefined)).toBe(true);
    expect(isZeroResult({})).toBe(true);
    expect(isZeroResult({ requeue: false, requeueAfterMs: 0 })).toBe(true);
  });
  it('is false when requeue or requeueAfter is set', () => {
    expect(isZeroResult({ requeue: true })).toBe(false);
    expect(isZeroResult({ requeueAfterMs: 1000 })).toBe(false);
  });
});

describe('Func', () => {
  it('passes the request through and returns the result unchanged', async () => {
    const r = reconcileFunc(async (_c, req) => {
      expect(req).toEqual({ namespace: 'foo', name: 'bar' });
      return { requeue: true };
    });
    await expect(r.reconcile(ctx, { namespace: 'foo', name: 'bar' })).resolves.toEqual({ requeue: true });
  });
  it('returns the error unchanged', async () => {
    const err = new Error('boom');
    const r = reconcileFunc(async () => {
      throw err;
    });
    await expect(r.reconcile(ctx, { namespace: '', name: 'x' })).rejects.toBe(err);
  });
});

describe('TerminalError', () => {
  it('still exposes the wrapped error', () => {
    const inner = new ApiError(410, 'Expired', 'too old');
    const t = terminalError(inner);
    expect(isTerminalError(t)).toBe(true);
    expect(isResourceExpired(t.cause)).toBe(true);
  });
  it("carries upstream's message: 'terminal error: ' + the wrapped one, 'nil terminal error' for nothing", () => {
    expect(terminalError(new Error('boom')).message).toBe('terminal error: boom');
    expect(terminalError(undefined).message).toBe('nil terminal error');
    expect(terminalError(null).message).toBe('nil terminal error');
  });
  it('is found through a chain of causes, as errors.Is finds it', () => {
    const wrapped = new Error('reconciling: failed', { cause: new Error('step', { cause: terminalError('x') }) });
    expect(isTerminalError(wrapped)).toBe(true);
    expect(isTerminalError(new Error('plain'))).toBe(false);
  });
});

describe('request keys', () => {
  it('uses "ns/name" and "name" for cluster-scoped requests, and round-trips', () => {
    expect(requestKey({ namespace: 'a', name: 'b' })).toBe('a/b');
    expect(requestKey({ namespace: '', name: 'node-1' })).toBe('node-1');
    expect(requestFromKey('a/b')).toEqual({ namespace: 'a', name: 'b' });
    expect(requestFromKey('node-1')).toEqual({ namespace: '', name: 'node-1' });
    expect(namespacedName({ namespace: '', name: 'node-1' })).toBe('/node-1');
  });
});

describe('AsReconciler', () => {
  const found: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'a', name: 'b' } };
  const reader = {
    get: async <T extends KubeObject>(_t: unknown, key: { name: string }): Promise<T> => {
      if (key.name === 'missing') throw new ApiError(404, 'NotFound', 'pods "missing" not found');
      if (key.name === 'broken') throw new ApiError(500, 'InternalError', 'boom');
      return found as T;
    },
  };
  it('gets the object and passes it on', async () => {
    const seen: KubeObject[] = [];
    const r = asReconciler(reader, 'v1/Pod', { reconcile: async (_c, o) => void seen.push(o) });
    await r.reconcile(ctx, { namespace: 'a', name: 'b' });
    expect(seen).toEqual([found]);
  });
  it('returns no error and does not call the inner reconciler for a missing object', async () => {
    let called = false;
    const r = asReconciler(reader, 'v1/Pod', { reconcile: async () => void (called = true) });
    await expect(r.reconcile(ctx, { namespace: 'a', name: 'missing' })).resolves.toEqual({});
    expect(called).toBe(false);
  });
  it('returns other Get errors', async () => {
    const r = asReconciler(reader, 'v1/Pod', { reconcile: async () => undefined });
    await expect(r.reconcile(ctx, { namespace: 'a', name: 'broken' })).rejects.toThrow('boom');
  });
});
