// Kind-specific behaviour of built-ins a controller meets: Service defaults and field labels, Node and
// Namespace field selectors, cluster-scoped watches (spec §3.5, §5.1, §8).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { newListWatchFromClient } from '../../../server/runtime/client';
import { collect, NAMESPACE, names, newNamespace } from '../support/helpers';
import type { GetTarget, TargetName } from '../support/target';

const SERVICE = { apiVersion: 'v1', kind: 'Service' } as const;
const NODE = { apiVersion: 'v1', kind: 'Node' } as const;

export function builtinCases(target: GetTarget, _targetName: TargetName): void {
  describe('built-in kinds', () => {
    it('defaults a ClusterIP Service and selects it by spec.type and spec.clusterIP', async () => {
      const t = target();
      const ns = await newNamespace(t);
      const svc = await t.client.create<KubeObject>({
        ...SERVICE,
        metadata: { name: 'web', namespace: ns },
        spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
      });
      const spec = svc.spec as Record<string, unknown>;
      expect(spec).toMatchObject({
        type: 'ClusterIP',
        sessionAffinity: 'None',
        ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      });
      expect(spec.clusterIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      expect(spec.clusterIPs).toEqual([spec.clusterIP]);
      const byType = await t.client.list(SERVICE, { namespace: ns, fieldSelector: 'spec.type=ClusterIP' });
      expect(names(byType.items)).toEqual(['web']);
      const byIP = await t.client.list(SERVICE, {
        namespace: ns,
        fieldSelector: `spec.clusterIP=${String(spec.clusterIP)}`,
      });
      expect(names(byIP.items)).toEqual(['web']);
    });

    it('selects Nodes on spec.unschedulable and Namespaces on status.phase', async () => {
      const t = target();
      const suffix = (await newNamespace(t)).slice('conf-'.length);
      const label = `conf-node-${suffix}`;
      await t.client.create<KubeObject>({ ...NODE, metadata: { name: `${label}-a`, labels: { suite: label } } });
      await t.client.create<KubeObject>({
        ...NODE,
        metadata: { name: `${label}-b`, labels: { suite: label } },
        spec: { unschedulable: true },
      });
      const cordoned = await t.client.list(NODE, {
        labelSelector: `suite=${label}`,
        fieldSelector: 'spec.unschedulable=true',
      });
      expect(names(cordoned.items)).toEqual([`${label}-b`]);
      const open = await t.client.list(NODE, {
        labelSelector: `suite=${label}`,
        fieldSelector: 'spec.unschedulable=false',
      });
      expect(names(open.items)).toEqual([`${label}-a`]);
      const active = await t.client.list(NAMESPACE, { fieldSelector: 'status.phase=Active,metadata.name=default' });
      expect(names(active.items)).toEqual(['default']);
    });

    it('watches a cluster-scoped kind with a label selector', async () => {
      const t = target();
      const label = `w-${(await newNamespace(t)).slice('conf-'.length)}`;
      const lw = newListWatchFromClient({
        http: t.http,
        gvr: { group: '', version: 'v1', resource: 'namespaces' },
        labelSelector: `watch=${label}`,
      });
      const start = await lw.list({});
      expect(start.items).toEqual([]);
      const stream = await lw.watch({ resourceVersion: start.metadata.resourceVersion });
      const pending = collect(stream, (evs) => evs.length >= 1);
      await t.client.create<KubeObject>({ ...NAMESPACE, metadata: { generateName: 'conf-other-' } });
      const mine = await t.client.create<KubeObject>({
        ...NAMESPACE,
        metadata: { generateName: 'conf-watched-', labels: { watch: label } },
      });
      const { events } = await pending;
      expect(events.map((e) => [e.type, (e.object as KubeObject).metadata.name])).toEqual([
        ['ADDED', mine.metadata.name],
      ]);
      expect((events[0]?.object as KubeObject).metadata.namespace).toBeUndefined();
    });
  });
}
