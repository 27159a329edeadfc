// One queue script through our port of controller-runtime's priority queue (server/runtime/workqueue) and
// through the real one in Go wrapped by the bridge (go/crosscheck_test.go): both must report the same events
// (what each call did to the key, the queue's depth after it, priorities, backoff delays), so a Go
// controller's queue panel reads exactly as ours.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../shared/protocol/events';
import { PriorityQueue } from '../../server/runtime/workqueue/priority-queue';
import { FakeClock } from '../../server/runtime/testing/fake-clock';
import { RecordingProbe } from '../../server/runtime/testing/recording-probe';
import { REPO, go, goBinary } from './support/go-tool';

type Step =
  | { op: 'add' | 'addRateLimited'; key: string; priority?: number }
  | { op: 'addAfter'; key: string; ms: number; priority?: number }
  | { op: 'get' | 'done' | 'forget'; key: string };

const HOUR = 3_600_000;
const SCRIPT: Step[] = [
  { op: 'add', key: 'ns/a' },
  { op: 'add', key: 'ns/a' }, // de-duplicated
  { op: 'add', key: 'ns/b', priority: 10 }, // jumps ahead of a
  { op: 'addAfter', key: 'ns/c', ms: HOUR },
  { op: 'add', key: 'ns/c' }, // ends c's wait: one entry per key
  { op: 'get', key: 'ns/b' },
  { op: 'add', key: 'ns/b' }, // while processing: parked
  { op: 'done', key: 'ns/b' }, // parked b is ready again
  { op: 'get', key: 'ns/a' },
  { op: 'addAfter', key: 'ns/a', ms: HOUR }, // requeue after, while processing
  { op: 'forget', key: 'ns/a' },
  { op: 'done', key: 'ns/a' },
  { op: 'get', key: 'ns/c' },
  { op: 'done', key: 'ns/c' },
  { op: 'get', key: 'ns/b' },
  { op: 'addAfter', key: 'ns/b', ms: HOUR, priority: 5 },
  { op: 'done', key: 'ns/b' },
  // Last, because these delays are short: the real queue's clock runs on, a fake one does not.
  { op: 'addRateLimited', key: 'ns/d' }, // the limiter's 5 ms
  { op: 'addRateLimited', key: 'ns/d' }, // 10 ms, folded into the earlier ready time
];

/** What must agree; times (waitMs, readyAt, processingMs) differ between a fake and a real clock. */
function comparable(ev: RuntimeEvent): Record<string, unknown> {
  const e = ev as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = { kind: e.kind, key: e.key };
  for (const f of [
    'queued',
    'dirtyWhileProcessing',
    'delayCancelled',
    'matured',
    'requeued',
    'depth',
    'delayMs',
    'requeues',
  ]) {
    if (e[f] !== undefined && e[f] !== false) out[f] = e[f];
  }
  if (e.kind === 'queue.add') out.priority = e.priority ?? 0;
  return out;
}

async function runOurs(): Promise<Record<string, unknown>[]> {
  const probe = new RecordingProbe();
  const q = new PriorityQueue<string>({ name: 'c', clock: new FakeClock(), probe });
  for (const s of SCRIPT) {
    if (s.op === 'add') q.addWithOpts({ priority: s.priority ?? 0 }, s.key);
    else if (s.op === 'addAfter') q.addWithOpts({ after: s.ms, priority: s.priority ?? 0 }, s.key);
    else if (s.op === 'addRateLimited') q.addWithOpts({ ratelimited: true, priority: s.priority ?? 0 }, s.key);
    else if (s.op === 'get') {
      const got = await q.getWithPriority();
      expect(got.shutdown ? undefined : got.item).toBe(s.key);
    } else if (s.op === 'done') q.done(s.key);
    else q.forget(s.key);
  }
  q.shutDown();
  return probe.events.filter((e) => e.kind !== 'queue.shutdown').map(comparable);
}

describe.skipIf(!goBinary())('queue cross-check: our priority queue and controller-runtime’s, wrapped', () => {
  it('report the same events for the same script', { timeout: 600_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'queue-crosscheck-'));
    writeFileSync(join(dir, 'script.json'), JSON.stringify(SCRIPT));
    const out = join(dir, 'events.ndjson');
    await go(join(REPO, 'go'), ['test', '-count=1', '-run', '^TestQueueScript$', '.'], 600_000, {
      CROSSCHECK_SCRIPT: join(dir, 'script.json'),
      CROSSCHECK_OUT: out,
    });
    const theirs = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => comparable(JSON.parse(l) as RuntimeEvent));
    const ours = await runOurs();
    expect(theirs).toHaveLength(SCRIPT.length);
    expect(theirs).toEqual(ours);
  });
});
