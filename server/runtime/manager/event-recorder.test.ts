// client-go tools/events' recorder as the manager hands it out: the events.k8s.io/v1 Event it writes
// (name, namespace, reporting fields, references, note formatting), and what it refuses.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { NULL_LOGGER, type Logger } from '../reconcile/logger';
import { FakeClock, flushMicrotasks } from '../testing/fake-clock';
import { newEventRecorder } from './event-recorder';

const pod: KubeObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { namespace: 'ns', name: 'p', uid: 'u1', resourceVersion: '7' },
};

function recorder(log: Logger = NULL_LOGGER, fail = false) {
  const created: KubeObject[] = [];
  const client = {
    create: async <T extends KubeObject>(o: T): Promise<T> => {
      if (fail) throw new Error('forbidden');
      created.push(o);
      return o;
    },
  };
  const clock = new FakeClock(1_700_000_000_123);
  return { created, rec: newEventRecorder({ name: 'my-controller', client, clock, log, hostname: 'host1' }) };
}

describe('events.k8s.io/v1 EventRecorder', () => {
  it('writes an Event about the regarding object, as client-go makeEvent builds it', async () => {
    const { created, rec } = recorder();
    rec.eventf(pod, undefined, 'Normal', 'Scaled', 'Scale', 'scaled to %d replicas', 3);
    await flushMicrotasks();
    expect(created).toEqual([
      {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: `p.${(1_700_000_000_123n * 1_000_000n).toString(16)}`, namespace: 'ns' },
        eventTime: '2023-11-14T22:13:20.123000Z',
        reportingController: 'my-controller',
        reportingInstance: 'my-controller-host1',
        action: 'Scale',
        reason: 'Scaled',
        regarding: { apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: 'p', uid: 'u1', resourceVersion: '7' },
        note: 'scaled to 3 replicas',
        type: 'Normal',
      },
    ]);
  });

  it('puts events about cluster-scoped objects in "default" and carries the related object', async () => {
    const { created, rec } = recorder();
    const node: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } };
    rec.eventf(node, pod, 'Warning', 'Pressure', 'Evict', 'too full');
    await flushMicrotasks();
    expect(created[0]?.metadata.namespace).toBe('default');
    expect(created[0]?.['related']).toMatchObject({ kind: 'Pod', name: 'p' });
  });

  it('refuses an unsupported type, and logs (never throws) when the write fails', async () => {
    const logged: string[] = [];
    const log: Logger = { info: () => {}, error: (_e, m) => void logged.push(m), withValues: () => log };
    const ok = recorder(log);
    ok.rec.eventf(pod, undefined, 'Info' as 'Normal', 'R', 'A', 'n');
    const failing = recorder(log, true);
    failing.rec.eventf(pod, undefined, 'Normal', 'R', 'A', 'n');
    await flushMicrotasks();
    expect(ok.created).toEqual([]);
    expect(logged).toEqual(['Unsupported event type', 'Unable to record event (will not retry!)']);
  });
});
