import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Counter, Registry } from 'prom-client';
import type { KubeObject } from '../../../shared/models/object';
import type { ObjectInspection } from '../../../shared/protocol/socket';
import { Recorder } from '../recorder/recorder';
import type { DashboardServer } from './dashboard-server';
import { reduce } from '../../../shared/protocol/reduce';
import { EventScript } from '../../../shared/protocol/testing/synthetic';
import { createView } from '../../../shared/protocol/view';
import { openReplay } from '../replay/open-replay';
import { RECORDING_FROM_SEQ_HEADER, RECORDING_TO_SEQ_HEADER } from '../../../shared/protocol/recording';
import { startTestDashboard, unstamped } from './test-harness';

let dash: DashboardServer | undefined;
afterEach(async () => {
  await dash?.close();
  dash = undefined;
});

describe('dashboard HTTP', () => {
  it("exports one viewer's recording that --replay rebuilds into the same view, stopping nothing", async () => {
    const s = new EventScript();
    s.informerStartup('v1/Pod', 'v1/Pod', 3);
    for (let i = 0; i < 3; i++) s.reconcileCycle('pods', `default/obj-${i}`);
    const r = await startTestDashboard({ cluster: { kind: 'sandbox', writable: true }, controllers: ['pods'] });
    dash = r.dash;
    for (const e of unstamped(s.events)) r.recorder.emit(e);
    r.recorder.flush();
    const toSeq = s.events.length - 2;
    const res = await fetch(`${dash.url}api/recording?fromSeq=4&toSeq=${toSeq}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="controller-scope-.*\.csrec"/);
    expect(res.headers.get('content-type')).toMatch(/application\/gzip/);
    expect(res.headers.get(RECORDING_FROM_SEQ_HEADER)).toBe('4');
    expect(res.headers.get(RECORDING_TO_SEQ_HEADER)).toBe(String(toSeq));
    const dir = mkdtempSync(join(tmpdir(), 'viewer-recording-'));
    const file = join(dir, 'mine.csrec');
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const replay = await openReplay({ file, autoplay: false });
    expect(replay.recording.header.range).toEqual({ fromSeq: 4, toSeq });
    expect(replay.recording.header.controllers).toEqual(['pods']);
    // The state before the span, then exactly the span's events.
    expect(replay.recording.states[0]).toMatchObject({ type: 'snapshot', seq: 3 });
    expect(replay.recording.events.map((e) => e.seq)).toEqual(s.events.slice(3, toSeq).map((_, i) => i + 4));
    replay.source.seek(toSeq);
    const held = (r.recorder.eventsAfter(0) ?? []).slice(0, toSeq);
    expect(replay.recorder.view).toEqual(reduce(createView(r.recorder.view.limits), held));
    expect(r.recorder.enabled).toBe(true);
    const bad = await fetch(`${dash.url}api/recording?toSeq=-1`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('toSeq must be a whole number');
  });

  it('says in its headers when a span starts later than asked, because the ring no longer holds its start', async () => {
    const s = new EventScript();
    s.informerStartup('v1/Pod', 'v1/Pod', 3);
    for (let i = 0; i < 200; i++) s.reconcileCycle('pods', `default/obj-${i % 3}`);
    const r = await startTestDashboard({ recorderOptions: { capacity: 100 } });
    dash = r.dash;
    for (const e of unstamped(s.events)) r.recorder.emit(e);
    r.recorder.flush();
    const res = await fetch(`${dash.url}api/recording?fromSeq=2`);
    expect(res.status).toBe(200);
    const from = Number(res.headers.get(RECORDING_FROM_SEQ_HEADER));
    expect(from).toBeGreaterThan(2);
    expect(from).toBe(r.recorder.oldestStateSeq() + 1);
    expect(res.headers.get(RECORDING_TO_SEQ_HEADER)).toBe(String(r.recorder.view.lastSeq));
  });

  it('serves health, readiness with its reason, and the metrics registry', async () => {
    const registry = new Registry();
    new Counter({ name: 'controller_runtime_reconcile_total', help: 'x', registers: [registry] }).inc(3);
    let reason: string | undefined = 'caches not synced: v1/Pod';
    ({ dash } = await startTestDashboard({ registry, notReadyReason: () => reason }));
    expect(await (await fetch(`${dash.url}healthz`)).text()).toBe('ok');
    const notReady = await fetch(`${dash.url}readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.text()).toBe('caches not synced: v1/Pod');
    reason = undefined;
    expect((await fetch(`${dash.url}readyz`)).status).toBe(200);
    const metrics = await fetch(`${dash.url}metrics`);
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    expect(await metrics.text()).toContain('controller_runtime_reconcile_total 3');
  });

  it('returns the view and objects by group/version/kind/namespace/name with "_" for core and cluster scope', async () => {
    const objects = new Map<string, KubeObject>([
      [
        'v1/Pod|default/p',
        { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', resourceVersion: '5' } },
      ],
      ['v1/Node||n1', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', resourceVersion: '9' } }],
      [
        'apps/v1/Deployment|web/d',
        { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd', namespace: 'web' } },
      ],
    ]);
    const recorder = new Recorder({
      objectSource: { get: (g, ns, n) => objects.get(`${g}|${ns ?? ''}${ns ? '/' : '|'}${n}`) },
    });
    recorder.emit({ kind: 'reflector.bookmark', informer: 'v1/Pod', resourceVersion: '5' });
    ({ dash } = await startTestDashboard({ recorder }));
    const view = await (await fetch(`${dash.url}api/view`)).json();
    expect(view).toMatchObject({ lastSeq: 1, informers: { 'v1/Pod': { lastResourceVersion: '5' } } });
    const pod = (await (await fetch(`${dash.url}api/objects/_/v1/Pod/default/p`)).json()) as ObjectInspection;
    expect(pod.object?.metadata.name).toBe('p');
    expect(pod.versions).toHaveLength(1);
    const node = (await (await fetch(`${dash.url}api/objects/_/v1/Node/_/n1`)).json()) as ObjectInspection;
    expect(node.object?.metadata.resourceVersion).toBe('9');
    const dep = (await (await fetch(`${dash.url}api/objects/apps/v1/Deployment/web/d`)).json()) as ObjectInspection;
    expect(dep.object?.kind).toBe('Deployment');
    const missing = await fetch(`${dash.url}api/objects/_/v1/Pod/default/nope`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: string }).error).toMatch(/not in the informer cache/);
    expect((await fetch(`${dash.url}api/nothing`)).status).toBe(404);
  });

  it('serves the built web app with a fallback to index.html for client routes', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'cs-web-')), 'web');
    mkdirSync(dir);
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>controller-scope</title>');
    writeFileSync(join(dir, 'app.js'), 'console.log(1)');
    ({ dash } = await startTestDashboard({ staticDir: dir }));
    expect(await (await fetch(dash.url)).text()).toContain('controller-scope');
    expect(await (await fetch(`${dash.url}app.js`)).text()).toBe('console.log(1)');
    expect(await (await fetch(`${dash.url}controllers/pods`)).text()).toContain('controller-scope');
  });

  it('says clearly when the port is taken', async () => {
    ({ dash } = await startTestDashboard());
    await expect(startTestDashboard({ port: dash.port })).rejects.toThrow(
      /127.0.0.1:\d+ is already in use; choose another --port/,
    );
  });
});
