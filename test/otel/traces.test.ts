// Traces from two controllers in two languages land in a real Jaeger, linked across the processes. The
// TypeScript controller (ts-controller.ts, under `controller-scope run`) creates "pong" when "ping" appears;
// the Go controller (go-peer/, controller-runtime with the module) creates "ack" when "pong" appears; the
// TypeScript controller then reconciles "ack". Each write's span is found by the ids derived from the
// object's uid and resourceVersion, and each reconcile must link to the write that woke it.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { SandboxServer } from '../../server/cluster/sandbox';
import { writeSpanRef } from '../../server/otel/span-ids';
import { OTEL_ATTR, OTEL_LINK, OTEL_RESOURCE, OTEL_SPAN } from '../../shared/protocol/otel-names';
import { startCli } from '../run/support/cli-process';
import { apply } from '../go/support/cluster';
import { REPO, go, goBinary, startGo } from '../go/support/go-tool';
import { attrs, findTraces, poll, traceSpans, type OtlpSpan } from './support/jaeger-api';
import { jaegerBinary, startJaeger, type RunningJaeger } from './support/jaeger';

const MODULE = 'github.com/controller-scope/controller-scope/go';
const REQUIRED = process.env.CONTROLLER_SCOPE_REQUIRE_JAEGER === '1';
const JAEGER = jaegerBinary();
const MISSING = JAEGER
  ? undefined
  : 'no Jaeger binary: build it with scripts/setup-jaeger.sh (or set CONTROLLER_SCOPE_JAEGER)';
if (MISSING && !REQUIRED) console.warn(`skipping the Jaeger trace test: ${MISSING}`);

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

interface Obj {
  metadata: { uid: string; resourceVersion: string };
}

async function getConfigMap(base: string, name: string): Promise<Obj | undefined> {
  const res = await fetch(`${base}/api/v1/namespaces/default/configmaps/${name}`);
  return res.ok ? ((await res.json()) as Obj) : undefined;
}

/** Polls Jaeger until the trace holds a span that `pick` accepts. */
async function spanIn(j: RunningJaeger, traceId: string, what: string, pick: (s: OtlpSpan) => boolean) {
  let seen: OtlpSpan[] = [];
  const span = await poll(what, async () => {
    seen = await traceSpans(j.query, traceId);
    return seen.find(pick);
  }).catch((err: unknown) => {
    throw new Error(`${(err as Error).message}; trace ${traceId} holds ${JSON.stringify(seen)}`);
  });
  return { span, trace: seen };
}

const linkOf = (s: OtlpSpan, kind: string) =>
  (s.links ?? []).filter((l) => attrs(l.attributes)[OTEL_ATTR.link] === kind);

async function buildGoPeer(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'otel-go-peer-'));
  cpSync(join(REPO, 'test', 'otel', 'go-peer'), join(dir, 'src'), { recursive: true });
  await go(join(dir, 'src'), ['mod', 'edit', `-replace=${MODULE}=${join(REPO, 'go')}`]);
  await go(join(dir, 'src'), ['build', '-o', join(dir, 'go-peer'), '.']);
  return join(dir, 'go-peer');
}

type Meta = Obj['metadata'];

/** Sandbox, both controllers exporting to Jaeger, then ping: resolves with the three objects once ack exists. */
async function runChain(jaeger: RunningJaeger, built: Promise<string>): Promise<Record<'ping' | 'pong' | 'ack', Meta>> {
  const dir = mkdtempSync(join(tmpdir(), 'otel-traces-'));
  const sandbox = new SandboxServer({ port: 0 });
  const { url } = await sandbox.start();
  cleanups.push(() => sandbox.stop());
  await sandbox.writeKubeconfig(join(dir, 'kubeconfig'));
  const otel = { OTEL_BSP_SCHEDULE_DELAY: '100' };

  const ts = await startCli(
    ['run', join(REPO, 'test', 'otel', 'ts-controller.ts'), '--kubeconfig', join(dir, 'kubeconfig')].concat([
      '--allow-writes',
      '--port',
      '0',
      '--otlp-endpoint',
      jaeger.otlp,
    ]),
    { env: { KUBECONFIG: '', OTEL_SERVICE_NAME: 'ts-pinger', ...otel } },
  );
  cleanups.push(() => ts.stop());
  const peer = await startGo(
    await built,
    [],
    {
      KUBECONFIG: join(dir, 'kubeconfig'),
      CONTROLLER_SCOPE_ADDR: 'off',
      CONTROLLER_SCOPE_PROCESS: 'go-acker-0',
      OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlp,
      OTEL_SERVICE_NAME: 'go-acker',
      ...otel,
    },
    /go-peer: starting/,
  );
  const child: ChildProcess = peer.child;
  cleanups.push(() => void child.kill('SIGTERM'));

  await apply(url, '/api/v1/namespaces/default/configmaps', {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'ping', namespace: 'default' },
  });
  const ack = (await poll('ping → pong (TypeScript) → ack (Go)', () => getConfigMap(url, 'ack'))).metadata;
  const ping = (await getConfigMap(url, 'ping'))!.metadata;
  const pong = (await getConfigMap(url, 'pong'))!.metadata;
  return { ping, pong, ack };
}

/** 1–2. The TypeScript write of pong, its reconcile (links to its cause and its write) and the queue wait under it. */
async function checkTypeScriptSide(jaeger: RunningJaeger, ping: Meta, pong: Meta): Promise<void> {
  const pongWrite = writeSpanRef(pong.uid, pong.resourceVersion);
  // 1. The TypeScript write of pong: its ids follow from pong's uid and version; it names its reconcile.
  const w1 = (
    await spanIn(jaeger, pongWrite.traceId, 'the TypeScript write of pong', (s) => s.name === OTEL_SPAN.write)
  ).span;
  expect(w1.spanId).toBe(pongWrite.spanId);
  expect(w1.resource[OTEL_RESOURCE.serviceName]).toBe('ts-pinger');
  expect(w1.resource[OTEL_RESOURCE.serviceInstanceId]).toMatch(/\/\d+$/);
  expect(attrs(w1.attributes)).toMatchObject({
    [OTEL_ATTR.verb]: 'create',
    [OTEL_ATTR.objectKind]: 'v1/ConfigMap',
    [OTEL_ATTR.objectName]: 'pong',
    [OTEL_ATTR.objectResourceVersion]: pong.resourceVersion,
    [OTEL_ATTR.controller]: 'pinger',
  });
  const [madeBy1] = linkOf(w1, OTEL_LINK.madeBy);
  expect(madeBy1).toBeDefined();

  // 2. Its reconcile: attributes, the queue wait under it, and links to its cause and its write.
  const r1 = await spanIn(
    jaeger,
    madeBy1!.traceId,
    'the TypeScript reconcile of ping',
    (s) => s.spanId === madeBy1!.spanId,
  );
  expect(r1.span.name).toBe(OTEL_SPAN.reconcile);
  expect(attrs(r1.span.attributes)).toMatchObject({
    [OTEL_ATTR.controller]: 'pinger',
    [OTEL_ATTR.key]: 'default/ping',
    [OTEL_ATTR.result]: 'success',
    [OTEL_ATTR.attempt]: '1',
  });
  expect(attrs(r1.span.attributes)[OTEL_ATTR.reconcileId]).toBeTruthy();
  expect(linkOf(r1.span, OTEL_LINK.cause).map((l) => l.spanId)).toContain(
    writeSpanRef(ping.uid, ping.resourceVersion).spanId,
  );
  expect(linkOf(r1.span, OTEL_LINK.wrote).map((l) => l.spanId)).toContain(pongWrite.spanId);
  const wait1 = (await spanIn(jaeger, madeBy1!.traceId, 'its queue wait', (s) => s.name === OTEL_SPAN.queueWait)).span;
  expect(wait1.parentSpanId).toBe(r1.span.spanId);
}

/** 3. The Go write of ack, and the Go reconcile that made it: linked to the TypeScript write of pong. */
async function checkGoSide(jaeger: RunningJaeger, pong: Meta, ack: Meta): Promise<void> {
  const pongWrite = writeSpanRef(pong.uid, pong.resourceVersion);
  const ackWrite = writeSpanRef(ack.uid, ack.resourceVersion);
  // 3. The Go write of ack, and the Go reconcile that made it: linked to the TypeScript write of pong.
  const w2 = (await spanIn(jaeger, ackWrite.traceId, 'the Go write of ack', (s) => s.name === OTEL_SPAN.write)).span;
  expect(w2.resource[OTEL_RESOURCE.serviceName]).toBe('go-acker');
  expect(w2.resource[OTEL_RESOURCE.serviceInstanceId]).toBe('go-acker-0');
  expect(attrs(w2.attributes)).toMatchObject({
    [OTEL_ATTR.verb]: 'create',
    [OTEL_ATTR.objectName]: 'ack',
    [OTEL_ATTR.controller]: 'acker',
  });
  const [madeBy2] = linkOf(w2, OTEL_LINK.madeBy);
  const r2 = await spanIn(jaeger, madeBy2!.traceId, 'the Go reconcile of pong', (s) => s.spanId === madeBy2!.spanId);
  expect(attrs(r2.span.attributes)).toMatchObject({
    [OTEL_ATTR.controller]: 'acker',
    [OTEL_ATTR.key]: 'default/pong',
    [OTEL_ATTR.result]: 'success',
  });
  const cause2 = linkOf(r2.span, OTEL_LINK.cause).find((l) => l.spanId === pongWrite.spanId);
  expect(cause2, 'the Go reconcile links to the TypeScript write').toMatchObject({ traceId: pongWrite.traceId });
  expect(attrs(cause2!.attributes)).toMatchObject({
    [OTEL_ATTR.eventType]: 'create',
    [OTEL_ATTR.objectResourceVersion]: pong.resourceVersion,
  });
  const wait2 = (await spanIn(jaeger, madeBy2!.traceId, 'the Go queue wait', (s) => s.name === OTEL_SPAN.queueWait))
    .span;
  expect(wait2.parentSpanId).toBe(r2.span.spanId);
}

/** 4. Back in TypeScript: the reconcile of ack links to the Go write. */
async function checkBackInTypeScript(jaeger: RunningJaeger, ack: Meta): Promise<void> {
  const ackWrite = writeSpanRef(ack.uid, ack.resourceVersion);
  // 4. Back in TypeScript: the reconcile of ack links to the Go write.
  const r3 = await poll('the TypeScript reconcile of ack', async () => {
    for (const id of await findTraces(jaeger.query, 'ts-pinger', OTEL_SPAN.reconcile, {
      [OTEL_ATTR.key]: 'default/ack',
    })) {
      const r = (await traceSpans(jaeger.query, id)).find((s) => s.name === OTEL_SPAN.reconcile);
      if (r) return r;
    }
    return undefined;
  });
  expect(linkOf(r3, OTEL_LINK.cause).map((l) => [l.traceId, l.spanId])).toContainEqual([
    ackWrite.traceId,
    ackWrite.spanId,
  ]);
}

describe.skipIf((MISSING && !REQUIRED) || !goBinary())('traces in Jaeger from a TypeScript and a Go controller', () => {
  it('links each reconcile to the write in the other process that caused it', { timeout: 900_000 }, async () => {
    if (!JAEGER) throw new Error(`CONTROLLER_SCOPE_REQUIRE_JAEGER=1 but ${MISSING}`);
    const built = buildGoPeer();
    const jaeger = await startJaeger(JAEGER);
    cleanups.push(() => jaeger.stop());
    const { ping, pong, ack } = await runChain(jaeger, built);
    await checkTypeScriptSide(jaeger, ping, pong);
    await checkGoSide(jaeger, pong, ack);
    await checkBackInTypeScript(jaeger, ack);
  });
});
