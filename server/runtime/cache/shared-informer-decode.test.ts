// An informer with the strip-managedFields transform decodes its objects without managedFields: over real HTTP,
// for the WatchList stream, LIST pages then watch lines, and metadata-only lists and watches. JSON.parse is
// watched to see that managedFields are never parsed, and the stored objects equal parse-then-strip.
import type http from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { HttpClient } from '../client/http';
import { newListWatchFromClient } from '../client/list-watch';
import { configFor, sendJson, startTestServer, type RecordedRequest, type TestServer } from '../testing/test-server';
import { newSharedIndexInformer } from './shared-informer';
import { chainTransforms, dropManagedFields, transformStripManagedFields } from './transforms';
import type { TransformFunc } from './interfaces';

const servers: TestServer[] = [];
const stops: AbortController[] = [];
afterEach(async () => {
  stops.splice(0).forEach((c) => c.abort());
  await Promise.all(servers.splice(0).map((s) => s.close()));
  vi.restoreAllMocks();
});

function pod(name: string, rv: number): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      resourceVersion: String(rv),
      labels: { app: 'x' },
      managedFields: [
        {
          manager: 'kubelet',
          operation: 'Update',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:status': { 'f:conditions': { 'k:{"type":"Ready"}': { '.': {}, 'f:status': {} } } } },
        },
      ],
    },
    spec: { nodeName: 'n1' },
  };
}

const line = (type: string, object: unknown): string => `${JSON.stringify({ type, object })}\n`;
const initialEventsEnd = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { resourceVersion: '2', annotations: { 'k8s.io/initial-events-end': 'true' } },
};

/** Serves pods a and b by LIST or WatchList, then one MODIFIED event for a, then holds the watch open. */
function serve(req: RecordedRequest, res: http.ServerResponse): void {
  const [a, b] = [pod('a', 1), pod('b', 2)];
  if (req.query.get('watch') !== 'true') {
    sendJson(res, 200, { apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '2' }, items: [a, b] });
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json' });
  if (req.query.get('sendInitialEvents') === 'true') {
    res.write(line('ADDED', a) + line('ADDED', b) + line('BOOKMARK', initialEventsEnd));
  }
  res.write(line('MODIFIED', { ...pod('a', 3), spec: { nodeName: 'n2' } }));
}

async function syncedInformer(opts: {
  transform: TransformFunc<KubeObject>;
  useWatchList: boolean;
  metadataOnly?: boolean;
}): Promise<KubeObject[]> {
  const server = await startTestServer(serve);
  servers.push(server);
  const lw = newListWatchFromClient({
    http: new HttpClient({ config: configFor(server) }),
    gvr: { group: '', version: 'v1', resource: 'pods' },
    ...(opts.metadataOnly ? { metadataOnlyAs: { group: '', version: 'v1', kind: 'Pod' } } : {}),
  });
  const informer = newSharedIndexInformer<KubeObject>({
    listerWatcher: lw,
    objectType: 'v1/Pod',
    useWatchList: opts.useWatchList,
    transform: opts.transform,
  });
  let updated!: () => void;
  const sawUpdate = new Promise<void>((r) => (updated = r));
  informer.addEventHandler({ onUpdate: () => updated() });
  const ctl = new AbortController();
  stops.push(ctl);
  void informer.run(ctl.signal);
  await sawUpdate;
  return informer
    .getStore()
    .list()
    .sort((x, y) => x.metadata.name!.localeCompare(y.metadata.name!));
}

/** Every text JSON.parse is given from now on. */
function parsedTexts(): string[] {
  const texts: string[] = [];
  const parse = JSON.parse;
  vi.spyOn(JSON, 'parse').mockImplementation((text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
    texts.push(text);
    return parse(text, reviver);
  });
  return texts;
}

const decoded = (texts: string[]): string[] => texts.filter((t) => t.includes('"name":"a"'));

describe('SharedIndexInformer with transformStripManagedFields decodes without managedFields', () => {
  for (const useWatchList of [true, false]) {
    it(`${useWatchList ? 'WatchList stream' : 'LIST then watch'}: stores parse-then-strip, never parses managedFields`, async () => {
      const texts = parsedTexts();
      const objects = await syncedInformer({ transform: transformStripManagedFields(), useWatchList });
      expect(objects).toStrictEqual([
        dropManagedFields({ ...pod('a', 3), spec: { nodeName: 'n2' } }),
        dropManagedFields(pod('b', 2)),
      ]);
      expect(decoded(texts).length).toBeGreaterThanOrEqual(2);
      for (const t of decoded(texts)) expect(t).not.toContain('"manager"');
    });
  }

  it('metadata-only informers decode without managedFields too', async () => {
    const texts = parsedTexts();
    const objects = await syncedInformer({
      transform: transformStripManagedFields(),
      useWatchList: false,
      metadataOnly: true,
    });
    expect(objects.map((o) => o.metadata)).toStrictEqual([
      dropManagedFields(pod('a', 3)).metadata,
      dropManagedFields(pod('b', 2)).metadata,
    ]);
    for (const t of decoded(texts)) expect(t).not.toContain('"manager"');
  });

  it('a chain that strips first still decodes without them; later steps never see them', async () => {
    const seen: boolean[] = [];
    const after: TransformFunc<KubeObject> = (o) => {
      seen.push('managedFields' in o.metadata);
      return o;
    };
    const texts = parsedTexts();
    await syncedInformer({ transform: chainTransforms(transformStripManagedFields(), after), useWatchList: true });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((s) => !s)).toBe(true);
    for (const t of decoded(texts)) expect(t).not.toContain('"manager"');
  });

  it('a transform that reads the object before stripping gets managedFields decoded', async () => {
    const seen: boolean[] = [];
    const before: TransformFunc<KubeObject> = (o) => {
      seen.push(Array.isArray(o.metadata.managedFields));
      return o;
    };
    const texts = parsedTexts();
    const objects = await syncedInformer({
      transform: chainTransforms(before, transformStripManagedFields()),
      useWatchList: true,
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every(Boolean)).toBe(true);
    expect(decoded(texts).some((t) => t.includes('"manager"'))).toBe(true);
    expect(objects.every((o) => !('managedFields' in o.metadata))).toBe(true);
  });

  it('a custom transform keeps full decoding', async () => {
    const texts = parsedTexts();
    const objects = await syncedInformer({ transform: (o) => o, useWatchList: true });
    expect(objects[0]!.metadata.managedFields).toHaveLength(1);
    expect(decoded(texts).some((t) => t.includes('"manager"'))).toBe(true);
  });
});
