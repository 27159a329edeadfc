import { describe, expect, it } from 'vitest';
import { redactObject, REDACTED } from './redact';
import type { KubeObject } from '../../../shared/models/object';

describe('redactObject', () => {
  const secret: KubeObject = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: 's',
      namespace: 'default',
      annotations: {
        'kubectl.kubernetes.io/last-applied-configuration': '{"data":{"password":"aHVudGVyMg=="}}',
        keep: 'me',
      },
      managedFields: [{ manager: 'kubectl', fieldsV1: { 'f:data': { 'f:password': {} } } }],
    },
    data: { password: 'aHVudGVyMg==' },
    stringData: { token: 'plain-token' },
    type: 'Opaque',
  };

  it('removes data, stringData and the last-applied copy, keeping keys and other fields', () => {
    const r = redactObject(secret);
    expect(r.data).toEqual({ password: REDACTED });
    expect(r.stringData).toEqual({ token: REDACTED });
    expect(r.metadata.annotations?.keep).toBe('me');
    expect(r.type).toBe('Opaque');
    const text = JSON.stringify(r);
    for (const v of ['aHVudGVyMg==', 'plain-token']) expect(text).not.toContain(v);
    expect(secret.data).toEqual({ password: 'aHVudGVyMg==' });
  });

  it('leaves other kinds alone', () => {
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } };
    expect(redactObject(cm)).toBe(cm);
  });
});
