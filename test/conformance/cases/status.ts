// Generation rules and the status/scale subresources of a built-in kind (Deployment) (spec §5.2).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { apiError, DEPLOYMENT, deployment, newNamespace } from '../support/helpers';
import type { GetTarget, TargetName } from '../support/target';

export function statusCases(target: GetTarget, _targetName: TargetName): void {
  describe('generation and the status subresource (Deployment)', () => {
    it('bumps generation on spec and annotation changes only, never on labels or status', async () => {
      const t = target();
      const ns = await newNamespace(t);
      let d = await t.client.create(deployment(ns, 'gen'));
      expect(d.metadata.generation).toBe(1);
      d = await t.client.update({ ...d, metadata: { ...d.metadata, labels: { tier: 'web' } } });
      expect(d.metadata.generation).toBe(1);
      d = await t.client.update({ ...d, spec: { ...(d.spec as object), replicas: 3 } });
      expect(d.metadata.generation).toBe(2);
      d = await t.client.update({ ...d, metadata: { ...d.metadata, annotations: { note: 'x' } } });
      expect(d.metadata.generation).toBe(3);
      d = await t.client.status().update({ ...d, status: { observedGeneration: 3, replicas: 0 } });
      expect(d.metadata.generation).toBe(3);
      expect(d.status).toMatchObject({ observedGeneration: 3 });
    });

    it('serves the scale subresource as autoscaling/v1 Scale mapped onto spec.replicas', async () => {
      const t = target();
      const ns = await newNamespace(t);
      await t.client.create(deployment(ns, 'scaled', 2));
      const path = `/apis/apps/v1/namespaces/${ns}/deployments/scaled/scale`;
      const scale = await t.http.request<KubeObject>({ path });
      expect(scale).toMatchObject({
        apiVersion: 'autoscaling/v1',
        kind: 'Scale',
        metadata: { name: 'scaled', namespace: ns },
        spec: { replicas: 2 },
        status: { replicas: 0, selector: 'app=scaled' },
      });
      const out = await t.http.request<KubeObject>({
        method: 'PUT',
        path,
        body: { ...scale, spec: { replicas: 5 } },
      });
      expect(out.spec).toEqual({ replicas: 5 });
      const d = await t.client.get<KubeObject>(DEPLOYMENT, { namespace: ns, name: 'scaled' });
      expect([(d.spec as { replicas: number }).replicas, d.metadata.generation]).toEqual([5, 2]);
      expect(scale.metadata.resourceVersion).not.toBe(d.metadata.resourceVersion);
      expect(out.metadata.resourceVersion).toBe(d.metadata.resourceVersion);
    });

    it('checks the resourceVersion of a /status update too', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const d = await t.client.create(deployment(ns, 'st'));
      await t.client.update({ ...d, metadata: { ...d.metadata, labels: { moved: 'on' } } });
      const err = await apiError(t.client.status().update({ ...d, status: { observedGeneration: 1 } }));
      expect([err.code, err.reason]).toEqual([409, 'Conflict']);
      expect(err.message).toMatch(
        /^Operation cannot be fulfilled on deployments\.apps "st": the object has been modified/,
      );
    });

    it('ignores status on the main endpoint and spec on /status', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const d = await t.client.create(deployment(ns, 'split'));
      const main: KubeObject = await t.client.update({ ...d, status: { observedGeneration: 7 } });
      expect((main.status as { observedGeneration?: number } | undefined)?.observedGeneration).toBeUndefined();
      const st = await t.client.status().update({
        ...main,
        spec: { ...(main.spec as object), replicas: 9 },
        status: { observedGeneration: 1 },
      });
      expect((st.spec as { replicas: number }).replicas).toBe(1);
      expect((st.status as { observedGeneration: number }).observedGeneration).toBe(1);
      expect(st.metadata.generation).toBe(1);
      const stored = await t.client.get<KubeObject>(DEPLOYMENT, { namespace: ns, name: 'split' });
      expect([
        (stored.spec as { replicas: number }).replicas,
        (stored.status as { observedGeneration: number }).observedGeneration,
      ]).toEqual([1, 1]);
    });
  });
}
