// A Secret pushed through every path the dashboard hands data out on: none of its values may appear.
import { mkdtempSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { Recorder } from '../recorder/recorder';
import { RecordingWriter } from '../replay/recording-writer';
import type { DashboardServer } from './dashboard-server';
import { client, hello, startTestDashboard } from './test-harness';
import type { TestClient } from './test-harness';

const VALUES = ['aHVudGVyMi1wYXNzd29yZA==', 'plain-text-token-value', 'dGxzLWtleS1ieXRlcw=='];

let dash: DashboardServer | undefined;
let sock: TestClient | undefined;
afterEach(async () => {
  sock?.disconnect();
  await dash?.close();
});

function secret(rv: string, extra: Record<string, string> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'kubernetes.io/tls',
    metadata: {
      name: 'db',
      namespace: 'prod',
      resourceVersion: rv,
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ data: { password: VALUES[0] } }),
      },
      managedFields: [{ manager: 'kubectl', operation: 'Apply', fieldsV1: { 'f:data': { 'f:password': {} } } }],
    },
    data: { password: VALUES[0] as string, 'tls.key': VALUES[2] as string, ...extra },
    stringData: { token: VALUES[1] as string },
  };
}

function assertClean(where: string, payload: unknown): void {
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  for (const v of VALUES) expect(text, `${where} leaks a Secret value`).not.toContain(v);
}

describe('Secret redaction end to end', () => {
  it('keeps Secret values out of inspect, /api/objects, /api/view, versions and recordings', async () => {
    let cached = secret('1');
    const recorder = new Recorder({
      flushIntervalMs: 10,
      objectSource: {
        get: (gvk, ns, name) => (gvk === 'v1/Secret' && ns === 'prod' && name === 'db' ? cached : undefined),
      },
    });
    const file = join(mkdtempSync(join(tmpdir(), 'cs-secret-')), 'rec.jsonl');
    const writer = new RecordingWriter({
      recorder,
      file,
      cluster: { kind: 'sandbox', writable: true },
      controllers: [],
    });
    const ref = { gvk: 'v1/Secret', namespace: 'prod', name: 'db' };
    recorder.emit({
      kind: 'indexer.update',
      informer: 'v1/Secret',
      op: 'add',
      key: 'prod/db',
      ref: { ...ref, resourceVersion: '1' },
      size: 1,
    });
    recorder.flush();
    cached = secret('2', { extra: VALUES[1] as string });
    recorder.emit({
      kind: 'indexer.update',
      informer: 'v1/Secret',
      op: 'update',
      key: 'prod/db',
      ref: { ...ref, resourceVersion: '2' },
      size: 1,
    });
    recorder.flush();

    ({ dash } = await startTestDashboard({ recorder }));
    sock = client(dash);
    const h = await hello(sock);
    assertClean('hello', h);
    const inspected = await sock.emitWithAck('inspect', { target: 'object', object: ref });
    expect(inspected.ok).toBe(true);
    if (inspected.ok && inspected.result.target === 'object') {
      expect(inspected.result.object?.data).toEqual({
        password: '<redacted>',
        'tls.key': '<redacted>',
        extra: '<redacted>',
      });
      expect(inspected.result.versions.map((v) => v.resourceVersion)).toEqual(['1', '2']);
    }
    assertClean('inspect', inspected);
    const api = await (await fetch(`${dash.url}api/objects/_/v1/Secret/prod/db`)).text();
    expect(api).toContain('<redacted>');
    assertClean('/api/objects', api);
    assertClean('/api/view', await (await fetch(`${dash.url}api/view`)).text());
    assertClean('inspect events', await sock.emitWithAck('inspect', { target: 'events' }));
    await writer.close();
    const recording = gunzipSync(readFileSync(file)).toString('utf8');
    expect(recording).toContain('indexer.update');
    assertClean('recording', recording);
  });
});
