// handleResult against the shared result-handling table (shared/protocol/reconcile-outcomes.ts): the
// panels explain outcomes from that table, so the runtime must do exactly what it says, for both queues.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RESULT_HANDLING, type ReconcileOutcome } from '../../../shared/protocol/reconcile-outcomes';
import { controllerMetrics } from '../metrics/controller-metrics';
import type { Result } from '../reconcile/reconcile';
import { FakeRequestQueue } from '../testing/fake-request-queue';
import { terminalError } from '../util/errors';
import { handleResult } from './result-handling';

const inputs: Record<ReconcileOutcome, { result?: Result; err?: unknown; panicked?: boolean }> = {
  success: {},
  requeue: { result: { requeue: true } },
  requeueAfter: { result: { requeueAfterMs: 1500 } },
  error: { err: new Error('boom'), result: { requeueAfterMs: 1500 } },
  terminalError: { err: terminalError(new Error('bad spec')) },
  panic: { err: new Error('reconciler threw'), panicked: true },
};

describe('handleResult does what the shared result-handling table says', () => {
  for (const priority of [false, true]) {
    for (const rule of Object.values(RESULT_HANDLING)) {
      it(`${rule.outcome}${priority ? ' (priority queue)' : ''}: forget=${rule.forget}, requeue=${rule.requeue}`, () => {
        const queue = new FakeRequestQueue({ priority });
        const input = inputs[rule.outcome];
        const handled = handleResult({
          queue,
          req: { namespace: 'ns', name: 'a' },
          result: input.result,
          err: input.err,
          hasErr: input.err !== undefined,
          panicked: input.panicked ?? false,
          priority: 0,
          controller: 'c',
          metrics: controllerMetrics(new Registry()),
        });
        expect(handled.outcome).toBe(rule.outcome);
        expect(queue.count('forget') > 0).toBe(rule.forget);
        const adds = queue.calls.filter((c) => c.op !== 'forget' && c.op !== 'done');
        const requeue =
          adds.length === 0
            ? 'no'
            : adds.every((c) => c.op === 'addAfter' || (c.op === 'addWithOpts' && c.opts?.after !== undefined))
              ? 'after'
              : adds.every((c) => c.op === 'addRateLimited' || (c.op === 'addWithOpts' && c.opts?.ratelimited))
                ? 'rateLimited'
                : 'unexpected';
        expect(requeue).toBe(rule.requeue);
      });
    }
  }
});
