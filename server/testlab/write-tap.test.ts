import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../shared/models/object';
import { ApiError, type Client } from '../runtime';
import { ControllerCrashedError, tapClient, type WriteCall, type WriteGate } from './write-tap';

function fakeClient(applied: string[]): Client {
  const write = async <T extends KubeObject>(obj: T) => {
    applied.push(obj.metadata.name ?? obj.metadata.generateName ?? '');
    return obj;
  };
  return {
    get: () => Promise.reject(new Error('no reads here')),
    list: () => Promise.reject(new Error('no reads here')),
    create: write,
    update: write,
    patch: write,
    delete: async (obj) => void applied.push(`delete ${obj.metadata.name ?? ''}`),
    deleteAllOf: async () => undefined,
    status: () => ({ update: write, patch: write }),
  };
}

function gate(after: Record<number, 'crash' | 'timeout'>, ended: string[]): WriteGate {
  let k = 0;
  return {
    counts: (kind) => kind !== 'v1/Event',
    begin: () => ({ k: ++k, ...(after[k] ? { after: after[k] } : {}) }),
    end: (n: number, call: WriteCall, o) =>
      ended.push(`${n} ${call.verb} ${call.ref.kind} ${call.ref.name}${o.code ? ` ${o.code}` : ''}`),
  };
}

const cm = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'd' } });

describe('tapClient', () => {
  it('numbers the counted writes, names them, and lets Events through uncounted', async () => {
    const applied: string[] = [];
    const ended: string[] = [];
    const c = tapClient(fakeClient(applied), { gate: gate({}, ended), dead: () => false });
    await c.create({ ...cm(''), metadata: { generateName: 'a-', namespace: 'd' } });
    await c.status().update(cm('b'));
    await c.create({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'd' } });
    expect(ended).toEqual(['1 create v1/ConfigMap a-*', '2 updateStatus v1/ConfigMap b']);
    expect(applied).toEqual(['a-', 'b', 'e']);
  });

  it('a timeout is applied and then fails; a crash is applied and the caller never learns it', async () => {
    const applied: string[] = [];
    const c = tapClient(fakeClient(applied), { gate: gate({ 1: 'timeout', 2: 'crash' }, []), dead: () => false });
    const timedOut = await c.update(cm('a')).catch((e: unknown) => e);
    expect(timedOut instanceof ApiError && [timedOut.code, timedOut.reason]).toEqual([504, 'Timeout']);
    await expect(c.update(cm('b'))).rejects.toBeInstanceOf(ControllerCrashedError);
    expect(applied).toEqual(['a', 'b']);
  });

  it('once dead, refuses every request without sending it', async () => {
    const applied: string[] = [];
    const c = tapClient(fakeClient(applied), { gate: gate({}, []), dead: () => true });
    await expect(c.create(cm('a'))).rejects.toBeInstanceOf(ControllerCrashedError);
    await expect(c.get({ apiVersion: 'v1', kind: 'ConfigMap' }, { name: 'a' })).rejects.toBeInstanceOf(
      ControllerCrashedError,
    );
    expect(applied).toEqual([]);
  });
});
