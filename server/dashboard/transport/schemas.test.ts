import { describe, expect, it } from 'vitest';
import type { Command } from '../../../shared/protocol/commands';
import { CACHE_KEYS_MAX } from '../../../shared/protocol/socket';
import { parseCommand, parseHello, parseInspect, parseSubscription } from './schemas';

describe('command validation', () => {
  const valid: Command[] = [
    { type: 'recording.pause' },
    { type: 'recording.resume' },
    { type: 'step.hold', controller: 'pods' },
    { type: 'step.next', controller: 'pods' },
    { type: 'step.resume', controller: 'pods' },
    { type: 'step.breakpoint', controller: 'pods', key: 'default/a' },
    { type: 'step.breakpoint', controller: 'pods', onError: true, remove: true },
    { type: 'step.breakpoint', controller: 'pods', key: 'default/web-*', outcome: 'terminalError', minAttempt: 3 },
    { type: 'step.breakpoint', controller: 'pods', id: 'bp1', enabled: false },
    { type: 'step.breakpoint', controller: 'pods', id: 'bp1', remove: true },
    { type: 'step.runTo', controller: 'pods', key: 'default/a' },
    { type: 'requeue', controller: 'pods', key: 'default/a' },
    { type: 'fault.inject', fault: { kind: 'latency', ms: 300, resource: 'pods', verbs: ['list', 'watch'] } },
    { type: 'fault.inject', fault: { kind: 'errors', rate: 0.5, code: 503 }, durationMs: 10_000 },
    { type: 'fault.inject', fault: { kind: 'conflicts', rate: 1, namespace: 'default' } },
    { type: 'fault.inject', fault: { kind: 'expireWatches' } },
    { type: 'fault.inject', fault: { kind: 'closeWatches' } },
    { type: 'fault.inject', fault: { kind: 'stallWatches', resource: 'configmaps' } },
    { type: 'fault.clear' },
    { type: 'fault.clear', id: 'f-1' },
    { type: 'workload.set', profile: 'churn', ratePerSecond: 50, namespace: 'load' },
    { type: 'workload.stop' },
    { type: 'replay.play', speed: 10 },
    { type: 'replay.play' },
    { type: 'replay.pause' },
    { type: 'replay.seek', seq: 0 },
  ];

  it.each(valid.map((c) => [c.type, c] as const))('accepts %s', (_t, cmd) => {
    expect(parseCommand(cmd)).toEqual({ ok: true, value: cmd });
  });

  it.each([
    ['a string', 'requeue', /expected object/],
    ['an unknown type', { type: 'format.disk' }, /type/],
    ['a missing field', { type: 'requeue', controller: 'p' }, /key/],
    ['an extra field', { type: 'workload.stop', now: true }, /Unrecognized key/],
    ['a rate above 1', { type: 'fault.inject', fault: { kind: 'conflicts', rate: 2 } }, /rate/],
    ['a success code as a fault', { type: 'fault.inject', fault: { kind: 'errors', rate: 1, code: 200 } }, /code/],
    ['an unknown verb', { type: 'fault.inject', fault: { kind: 'expireWatches', verbs: ['escalate'] } }, /verbs/],
    ['a breakpoint on an attempt below 1', { type: 'step.breakpoint', controller: 'p', minAttempt: 0 }, /minAttempt/],
    ['a breakpoint on an unknown outcome', { type: 'step.breakpoint', controller: 'p', outcome: 'oops' }, /outcome/],
    [
      'an empty breakpoint',
      { type: 'step.breakpoint', controller: 'p' },
      /needs an id \(to remove or toggle it\) or a condition/,
    ],
    ['a negative seq', { type: 'replay.seek', seq: -1 }, /seq/],
    ['a speed of 2', { type: 'replay.play', speed: 2 }, /speed/],
  ])('rejects %s with a message naming the problem', (_what, input, message) => {
    const r = parseCommand(input);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });
});

describe('other client messages', () => {
  it('validates hello, inspect and subscriptions', () => {
    expect(parseHello({ protocolVersion: 1, resume: { serverEpoch: 'e', lastSeq: 3 } }).ok).toBe(true);
    expect(parseHello({ protocolVersion: 1, resume: { serverEpoch: 'e' } }).ok).toBe(false);
    expect(parseInspect({ target: 'object', object: { gvk: 'v1/Pod', name: 'p' } }).ok).toBe(true);
    expect(parseInspect({ target: 'cache', informer: 'v1/Pod', search: 'web' }).ok).toBe(true);
    expect(parseInspect({ target: 'events', limit: 0 }).ok).toBe(false);
    // A cache's keys come whole in one answer (the page filters them); other answers stay at 10,000.
    expect(parseInspect({ target: 'cache', informer: 'v1/Pod', limit: CACHE_KEYS_MAX }).ok).toBe(true);
    expect(parseInspect({ target: 'cache', informer: 'v1/Pod', limit: CACHE_KEYS_MAX + 1 }).ok).toBe(false);
    expect(parseInspect({ target: 'events', limit: 10_001 }).ok).toBe(false);
    expect(parseSubscription({ namespaces: ['a'], kinds: ['Pod'] }).ok).toBe(true);
    expect(parseSubscription({ namespaces: 'a' }).ok).toBe(false);
  });
});
