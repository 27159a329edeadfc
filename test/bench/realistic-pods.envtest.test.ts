// The bench's realistic Pods against a real kube-apiserver (envtest): created as the ReplicaSet controller
// would (fieldManager kube-controller-manager), their status written as the kubelet would (the status
// subresource, fieldManager kubelet). What the server then holds must be what the generator makes: the same
// spec (so the generator carries the server's defaults) and the same managedFields, byte for byte but the
// time. This keeps the ingest bench's managedFields (about half of each Pod) what a cluster really sends.
// Skipped when the envtest binaries are absent; fails instead with CONTROLLER_SCOPE_REQUIRE_ENVTEST=1.
import https from 'node:https';
import { expect, it } from 'vitest';
import { realisticPod } from '../../bench/realistic-objects';
import { describeEnvtest, useControlPlane } from '../../server/cluster/envtest/testing';

type Json = Record<string, unknown>;

describeEnvtest('realistic Pods against kube-apiserver', () => {
  const plane = useControlPlane();

  function call(method: string, path: string, body: unknown): Promise<Json> {
    const info = plane();
    const url = new URL(path, info.apiServerUrl);
    return new Promise((resolve, reject) => {
      const req = https.request(
        url,
        {
          method,
          ca: info.tls.ca,
          cert: info.tls.cert,
          key: info.tls.key,
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => {
            const v = JSON.parse(text) as Json;
            if ((res.statusCode ?? 500) >= 300) reject(new Error(`${method} ${path}: ${res.statusCode} ${text}`));
            else resolve(v);
          });
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  }

  const withoutTime = (entries: unknown): unknown =>
    (entries as Json[]).map((e) => ({ ...e, time: 'the time of the write' }));

  it('holds the spec and the managedFields the generator makes, for Pods with and without a sidecar or env', async () => {
    // 0 and 3 run a sidecar; the others do not; their env counts differ.
    const pods = [0, 1, 2, 3, 4, 5, 7].map((i) => realisticPod(i, 1, true));
    for (const ns of new Set(pods.map((p) => (p['metadata'] as Json)['namespace'] as string))) {
      await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    }
    for (const pod of pods) {
      const md = pod['metadata'] as Json;
      const { uid: _uid, resourceVersion: _rv, creationTimestamp: _ts, managedFields, ...writable } = md;
      const base = `/api/v1/namespaces/${String(md['namespace'])}/pods`;
      const created = await call('POST', `${base}?fieldManager=kube-controller-manager`, {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: writable,
        spec: pod['spec'],
      });
      const held = await call('PUT', `${base}/${String(md['name'])}/status?fieldManager=kubelet`, {
        ...created,
        status: pod['status'],
      });
      expect(held['spec']).toEqual(pod['spec']);
      expect(JSON.stringify(withoutTime((held['metadata'] as Json)['managedFields']))).toBe(
        JSON.stringify(withoutTime(managedFields)),
      );
    }
  });
});
