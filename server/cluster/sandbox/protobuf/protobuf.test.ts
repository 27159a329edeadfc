// Decoding real kubectl 1.32 protobuf request bodies (captured from `kubectl create configmap|deployment|secret`).
import { describe, expect, it } from 'vitest';
import { decodeKubernetesProtobuf, isKubernetesProtobuf, ProtobufError } from './protobuf';

const hex = (h: string): Uint8Array => new Uint8Array(Buffer.from(h, 'hex'));

// kubectl create configmap fx --from-literal=a=1
const CONFIGMAP =
  '6b3873000a0f0a0276311209436f6e6669674d6170121c0a120a02667812001a0022002a0032003800420012060a01611201' + '311a002200';
// kubectl create deployment fx --image=nginx:1.27 --replicas=3 --port=8080
const DEPLOYMENT =
  '6b3873000a150a07617070732f7631120a4465706c6f796d656e7412ba010a1d0a02667812001a0022002a00320038004200' +
  '5a090a0361707012026678128a010803120b0a090a03617070120266781a710a1b0a0012001a0022002a003200380042005a' +
  '090a0361707012026678125212340a056e67696e78120a6e67696e783a312e32372a00320b0a00100018903f22002a004200' +
  '6a007200800100880100900100a201001a00320042004a0052005800600068008201008a01009a0100c2010022020a002800' +
  '38001a0c0800100018002000280038001a002200';
// kubectl create secret generic fx --from-literal=p=s3
const SECRET =
  '6b3873000a0c0a0276311206536563726574121f0a120a02667812001a0022002a0032003800420012070a0170120273331a' + '001a002200';

describe('decodeKubernetesProtobuf', () => {
  it('decodes a ConfigMap, dropping zero-valued omitempty fields', () => {
    expect(decodeKubernetesProtobuf(hex(CONFIGMAP))).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'fx' },
      data: { a: '1' },
    });
  });

  it('decodes a Deployment with nested messages, pointers and inline fields', () => {
    const d = decodeKubernetesProtobuf(hex(DEPLOYMENT));
    expect(d).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'fx', labels: { app: 'fx' } },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'fx' } },
        template: {
          metadata: { labels: { app: 'fx' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 8080 }] }] },
        },
      },
    });
    expect((d.metadata as Record<string, unknown>).creationTimestamp).toBeUndefined();
  });

  it('turns bytes maps into base64 strings', () => {
    expect(decodeKubernetesProtobuf(hex(SECRET))).toMatchObject({
      kind: 'Secret',
      data: { p: Buffer.from('s3').toString('base64') },
    });
  });

  it('rejects bodies without the magic prefix or of unknown kinds', () => {
    expect(isKubernetesProtobuf(new TextEncoder().encode('{}'))).toBe(false);
    expect(() => decodeKubernetesProtobuf(new TextEncoder().encode('{}'))).toThrow(ProtobufError);
    // k8s\0 + Unknown{typeMeta{apiVersion:"x/v1", kind:"Nope"}}
    const unknown = Buffer.concat([
      Buffer.from('k8s\0'),
      Buffer.from([0x0a, 0x0c, 0x0a, 0x04]),
      Buffer.from('x/v1'),
      Buffer.from([0x12, 0x04]),
      Buffer.from('Nope'),
    ]);
    expect(() => decodeKubernetesProtobuf(new Uint8Array(unknown))).toThrow(/no protobuf schema for x\/v1, Kind=Nope/);
  });
});

describe('DeleteOptions under a group', () => {
  it('decodes the DeleteOptions a clientset sends as its own group version (apiextensions.k8s.io/v1)', () => {
    const field = (n: number, bytes: Buffer): Buffer =>
      Buffer.concat([Buffer.from([(n << 3) | 2, bytes.length]), bytes]);
    const typeMeta = Buffer.concat([
      field(1, Buffer.from('apiextensions.k8s.io/v1')),
      field(2, Buffer.from('DeleteOptions')),
    ]);
    const raw = field(4, Buffer.from('Foreground'));
    const body = Buffer.concat([Buffer.from('k8s\0'), field(1, typeMeta), field(2, raw)]);
    expect(decodeKubernetesProtobuf(new Uint8Array(body))).toEqual({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'DeleteOptions',
      propagationPolicy: 'Foreground',
    });
  });
});

describe('protobuf coverage', () => {
  it('has a field table for every built-in kind the sandbox serves', async () => {
    const { decodableKinds } = await import('./protobuf');
    const { SandboxServer } = await import('../server');
    const kinds = new Set(decodableKinds());
    const served = new SandboxServer().registry
      .all()
      .filter((t) => !t.crdName)
      .map((t) => `${t.group ? `${t.group}/` : ''}${t.version}/${t.kind}`);
    expect(served.length).toBeGreaterThanOrEqual(68); // 67 preferred-version resources + autoscaling/v1
    expect(served.filter((k) => !kinds.has(k))).toEqual([]);
  });
});
