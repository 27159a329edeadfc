// Scenarios from controller-runtime pkg/reconcile/reconcile_test.go.
import { describe, expect, it } from 'vitest';
import { ApiError, isResourceExpired, isTerminalError, terminalError } from '../util/errors';
import { NULL_LOGGER } from './logger';
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
