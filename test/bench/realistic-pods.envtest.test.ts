// The bench's realistic Pods against a real kube-apiserver (envtest): created as the ReplicaSet controller
// would (fieldManager kube-controller-manager), their status written as the kubelet would (the status
// subresource, fieldManager kubelet). What the server then holds must be what the generator makes: the same
// spec (so the generator carries the server's defaults) and the same managedFields, byte for byte but the
// time. This keeps the ingest bench's managedFields (about half of each Pod) what a cluster really sends.
// Skipped when the envtest binaries are absent; fails instead with CONTROLLER_SCOPE_REQUIRE_ENVTEST=1.
import { expect, it } from 'vitest';
import { realisticPod } from '../../bench/realistic-objects';
import { describeEnvtest, useControlPlane } from '../../server/cluster/envtest/testing';
import { getConfig } from '../../server/runtime/client';
import { HttpClient } from '../../server/runtime/client/http';

type Json = Record<string, unknown>;

describeEnvtest('realistic Pods against kube-apiserver', () => {
  const plane = useControlPlane();

  const withoutTime = (entries: unknown): unknown =>
    (entries as Json[]).map((e) => ({ ...e, time: 'the time of the write' }));

  it('holds the spec and the managedFields the generator makes, for Pods with and without a sidecar or env', async () => {
    const http = new HttpClient({ config: getConfig({ kubeconfig: plane().kubeconfigPath, argv: [], env: {} }) });
    // 0 and 3 run a sidecar; the others do not; their env counts differ.
    const pods = [0, 1, 2, 3, 4, 5, 7].map((i) => realisticPod(i, 1, true));
    for (const ns of new Set(pods.map((p) => (p['metadata'] as Json)['namespace'] as string))) {
      await http.request({
        method: 'POST',
        path: '/api/v1/namespaces',
        body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
      });
    }
    for (const pod of pods) {
      const md = pod['metadata'] as Json;
      const { uid: _uid, resourceVersion: _rv, creationTimestamp: _ts, managedFields, ...writable } = md;
      const base = `/api/v1/namespaces/${String(md['namespace'])}/pods`;
      const created = await http.request<Json>({
        method: 'POST',
        path: base,
        query: { fieldManager: 'kube-controller-manager' },
        body: { apiVersion: 'v1', kind: 'Pod', metadata: writable, spec: pod['spec'] },
      });
      const held = await http.request<Json>({
        method: 'PUT',
        path: `${base}/${String(md['name'])}/status`,
        query: { fieldManager: 'kubelet' },
        body: { ...created, status: pod['status'] },
      });
      expect(held['spec']).toEqual(pod['spec']);
      expect(JSON.stringify(withoutTime((held['metadata'] as Json)['managedFields']))).toBe(
        JSON.stringify(withoutTime(managedFields)),
      );
    }
  });
});
