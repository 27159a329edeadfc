// transformShareSubtrees behind a real informer and the cache reader: the cached objects share their equal
// parts, and what a reader gets is a mutable deep copy whose two equal containers are two objects.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import type { FakeClock } from '../testing/fake-clock';
import { flushMicrotasks } from '../testing/fake-clock';
import { ScriptedListWatch } from '../testing/scripted-list-watch';
import { NAMESPACE_INDEX, metaNamespaceIndexFunc } from './indexer';
import { CacheReader } from './informer-cache-reader';
import { transformInternStrings } from './intern-strings';
import { transformShareSubtrees } from './share-subtrees';
import { newSharedIndexInformer } from './shared-informer';
import { chainTransforms, transformStripManagedFields } from './transforms';
import { freshClockEachTest } from '../testing/test-harness';

const container = (name: string) => ({
  name,
  image: 'registry.example.com/team/app:v1.2.3',
  resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
  ports: [{ containerPort: 8080, protocol: 'TCP' }],
});

const pod = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    namespace: 'team',
    name,
    uid: `uid-${name}`,
    managedFields: [{ manager: 'kubelet', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: {} }],
  },
  spec: { nodeName: `node-${name}`, containers: [container('app'), container('app')] },
});

type Container = { resources: { requests: Record<string, string> }; ports: { containerPort: number }[] };
const containersOf = (o: KubeObject): Container[] => (o.spec as { containers: Container[] }).containers;

let clock: FakeClock;
let ctl: AbortController;
freshClockEachTest((c, a) => ((clock = c), (ctl = a)));

describe('transformShareSubtrees in an informer', () => {
  for (const fifo of ['RealFIFO', 'DeltaFIFO'] as const) {
    it(`shares equal parts across cached objects, and the cache reader hands out unaliased copies (${fifo})`, async () => {
      const names = Array.from({ length: 8 }, (_, i) => `pod-${i}`);
      const lw = new ScriptedListWatch({ clock, initialObjects: names.map(pod) });
      const informer = newSharedIndexInformer<KubeObject>({
        listerWatcher: lw,
        objectType: 'v1/Pod',
        clock,
        fifo,
        random: () => 0,
        indexers: { [NAMESPACE_INDEX]: metaNamespaceIndexFunc },
        transform: chainTransforms(transformStripManagedFields(), transformInternStrings(), transformShareSubtrees()),
      });
      void informer.run(ctl.signal);
      await flushMicrotasks();
      const moved = pod('pod-7');
      (moved.spec as { nodeName: string }).nodeName = 'node-moved';
      lw.update(moved);
      await flushMicrotasks();

      const cached = (name: string) => informer.getIndexer().getByKey(`team/${name}`) as KubeObject;
      const [late, last] = [cached('pod-6'), cached('pod-7')];
      expect((last.spec as { nodeName: string }).nodeName).toBe('node-moved');
      expect(last.metadata.managedFields).toBeUndefined();
      // Across objects: one instance, frozen. Within one: two.
      expect(containersOf(last)[0]).toBe(containersOf(late)[0]);
      expect(containersOf(last)[0]).not.toBe(containersOf(last)[1]);
      expect(Object.isFrozen(containersOf(last)[0])).toBe(true);
      expect(Object.isFrozen(last)).toBe(false);

      const reader = new CacheReader(informer.getIndexer(), { group: '', version: 'v1', kind: 'Pod' }, true, false);
      const got = reader.get<KubeObject>('team', 'pod-7');
      expect(got).toEqual(cached('pod-7'));
      const [c0, c1] = containersOf(got) as [Container, Container];
      c0.resources.requests.cpu = '2';
      c0.ports[0]!.containerPort = 9090;
      expect(c1.resources.requests.cpu).toBe('100m');
      expect(c1.ports[0]!.containerPort).toBe(8080);
      // The cache and its other objects are untouched.
      expect(containersOf(cached('pod-7'))[0]!.resources.requests.cpu).toBe('100m');
      expect(containersOf(cached('pod-6'))[0]!.ports[0]!.containerPort).toBe(8080);
      const listed = reader.list<KubeObject>({ namespace: 'team' }).items;
      expect(listed).toHaveLength(8);
      for (const o of listed) expect(Object.isFrozen(containersOf(o)[0])).toBe(false);
    });
  }
});
