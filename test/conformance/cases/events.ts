// Core Events as controller-runtime's recorder writes them (POST, then strategic-merge PATCH of count and
// lastTimestamp) and the events.k8s.io/v1 view of the same objects (spec §10).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { rawPatch } from '../../../server/runtime/client';
import { newNamespace } from '../support/helpers';
import type { GetTarget, TargetName } from '../support/target';

export function eventCases(target: GetTarget, _targetName: TargetName): void {
  describe('events', () => {
    it('serves one core Event through v1 and events.k8s.io/v1, and aggregates a repeat with strategic merge', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const stamp = '2026-01-02T03:04:05Z';
      const ev = await t.client.create<KubeObject>({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'cm.1', namespace: ns },
        involvedObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', namespace: ns },
        reason: 'Tested',
        message: 'hello',
        type: 'Normal',
        source: { component: 'conformance' },
        count: 1,
        firstTimestamp: stamp,
        lastTimestamp: stamp,
      });
      const repeated = await t.client.patch(
        ev,
        rawPatch('strategic', { count: 2, lastTimestamp: '2026-01-02T03:04:09Z' }),
      );
      expect([repeated.count, repeated.lastTimestamp, repeated.message]).toEqual([2, '2026-01-02T03:04:09Z', 'hello']);
      const viaNew = await t.client.get<KubeObject>(
        { apiVersion: 'events.k8s.io/v1', kind: 'Event' },
        { namespace: ns, name: 'cm.1' },
      );
      expect(viaNew).toMatchObject({
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        regarding: { apiVersion: 'v1', kind: 'ConfigMap', name: 'cm', namespace: ns },
        note: 'hello',
        reason: 'Tested',
        type: 'Normal',
        deprecatedSource: { component: 'conformance' },
        deprecatedCount: 2,
        deprecatedFirstTimestamp: stamp,
        deprecatedLastTimestamp: '2026-01-02T03:04:09Z',
      });
      expect(viaNew.metadata.resourceVersion).toBe(repeated.metadata.resourceVersion);
      const byReason = await t.client.list(
        { apiVersion: 'v1', kind: 'Event' },
        { namespace: ns, fieldSelector: 'reason=Tested,involvedObject.name=cm' },
      );
      expect(byReason.items.map((i) => i.metadata.name)).toEqual(['cm.1']);
    });
  });
}
