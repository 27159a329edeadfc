// Decodes Kubernetes protobuf request bodies (apimachinery pkg/runtime/serializer/protobuf): the
// `k8s\0` magic, the runtime.Unknown envelope, then the kind's message, turned into the JSON shape the
// rest of the sandbox works with. Field tables come from schema.generated.json (see gen-schema.ts);
// zero values of non-pointer omitempty fields are dropped, as Go's JSON encoding would.
import schema from './schema.generated.json';

type Field = [number, string, string, string];
const messages = schema.messages as unknown as Record<string, Field[]>;
const roots = schema.roots as Record<string, string>;

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';
const MAGIC = [0x6b, 0x38, 0x73, 0x00];
const JSON_SCHEMA_PROPS = 'apiextensions/v1.JSONSchemaProps';

export class ProtobufError extends Error {
  override readonly name = 'ProtobufError';
}

interface Raw {
  wire: number;
  /** Varint / fixed values as bigint, length-delimited payloads as bytes. */
  value: bigint | Uint8Array;
}

function readFields(buf: Uint8Array): Map<number, Raw[]> {
  const out = new Map<number, Raw[]>();
  let i = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (i >= buf.length) throw new ProtobufError('truncated varint');
      const b = buf[i++] as number;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
      if (shift > 70n) throw new ProtobufError('varint too long');
    }
  };
  while (i < buf.length) {
    const key = Number(varint());
    const num = key >>> 3;
    const wire = key & 7;
    let value: bigint | Uint8Array;
    if (wire === 0) value = varint();
    else if (wire === 1) {
      value = new DataView(buf.buffer, buf.byteOffset + i, 8).getBigUint64(0, true);
      i += 8;
    } else if (wire === 2) {
      const len = Number(varint());
      if (i + len > buf.length) throw new ProtobufError('truncated field');
      value = buf.subarray(i, i + len);
      i += len;
    } else if (wire === 5) {
      value = BigInt(new DataView(buf.buffer, buf.byteOffset + i, 4).getUint32(0, true));
      i += 4;
    } else throw new ProtobufError(`unsupported wire type ${wire}`);
    const list = out.get(num) ?? [];
    list.push({ wire, value });
    out.set(num, list);
  }
  return out;
}

const text = (v: bigint | Uint8Array): string => (v instanceof Uint8Array ? new TextDecoder().decode(v) : String(v));
const int = (v: bigint | Uint8Array): number => (typeof v === 'bigint' ? Number(BigInt.asIntN(64, v)) : 0);

function time(bytes: Uint8Array, micro: boolean): string | undefined {
  const f = readFields(bytes);
  const seconds = int(f.get(1)?.[0]?.value ?? 0n);
  const nanos = int(f.get(2)?.[0]?.value ?? 0n);
  if (seconds === 0 && nanos === 0) return undefined;
  const iso = new Date(seconds * 1000).toISOString().slice(0, 19);
  return micro ? `${iso}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z` : `${iso}Z`;
}

function scalarOrSpecial(type: string, raw: Raw): unknown {
  const v = raw.value;
  switch (type) {
    case 'string':
      return text(v);
    case 'int':
      return int(v);
    case 'bool':
      return typeof v === 'bigint' ? v !== 0n : false;
    case 'double':
      return typeof v === 'bigint' ? new DataView(new BigUint64Array([v]).buffer).getFloat64(0, true) : 0;
    case 'bytes':
      return v instanceof Uint8Array ? Buffer.from(v).toString('base64') : '';
  }
  if (!(v instanceof Uint8Array)) throw new ProtobufError(`expected a message for ${type}`);
  switch (type) {
    case 'time':
      return time(v, false);
    case 'microtime':
      return time(v, true);
    case 'duration': {
      const ns = int(readFields(v).get(1)?.[0]?.value ?? 0n);
      return `${ns / 1e9}s`;
    }
    case 'quantity':
      return text(readFields(v).get(1)?.[0]?.value ?? new Uint8Array());
    case 'intorstring': {
      const f = readFields(v);
      return int(f.get(1)?.[0]?.value ?? 0n) === 1
        ? text(f.get(3)?.[0]?.value ?? new Uint8Array())
        : int(f.get(2)?.[0]?.value ?? 0n);
    }
    case 'stringlist':
      return (readFields(v).get(1) ?? []).map((r) => text(r.value));
    // apiextensions' either-or schema wrappers: JSON holds whichever member is set.
    case 'schemaorarray':
    case 'schemaorbool':
    case 'schemaorstrings': {
      const f = readFields(v);
      const schemaField = type === 'schemaorbool' ? 2 : 1;
      const schema = f.get(schemaField)?.[0]?.value;
      if (schema instanceof Uint8Array) return decodeMessage(JSON_SCHEMA_PROPS, schema);
      if (type === 'schemaorbool') return int(f.get(1)?.[0]?.value ?? 0n) !== 0;
      const list = f.get(2) ?? [];
      return type === 'schemaorarray'
        ? list.map((r) => decodeMessage(JSON_SCHEMA_PROPS, r.value instanceof Uint8Array ? r.value : new Uint8Array()))
        : list.map((r) => text(r.value));
    }
    case 'raw':
    case 'fieldsv1': {
      const bytes = readFields(v).get(1)?.[0]?.value;
      if (!(bytes instanceof Uint8Array) || bytes.length === 0) return undefined;
      return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    }
  }
  return decodeMessage(type, v);
}

function isZero(v: unknown): boolean {
  return v === undefined || v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0);
}

function decodeValue(type: string, raws: Raw[], repeated: boolean): unknown {
  if (type.startsWith('map:')) {
    const valueType = type.slice(4);
    const out: Record<string, unknown> = {};
    for (const r of raws) {
      if (!(r.value instanceof Uint8Array)) continue;
      const entry = readFields(r.value);
      const key = text(entry.get(1)?.[0]?.value ?? new Uint8Array());
      const val = entry.get(2)?.[0];
      out[key] = val
        ? scalarOrSpecial(valueType, val)
        : valueType === 'string' || valueType === 'bytes'
          ? ''
          : undefined;
    }
    return out;
  }
  if (repeated) {
    const items: unknown[] = [];
    for (const r of raws) {
      // Packed repeated varints arrive as one length-delimited run.
      if (r.wire === 2 && (type === 'int' || type === 'bool') && r.value instanceof Uint8Array) {
        let j = 0;
        const buf = r.value;
        while (j < buf.length) {
          let x = 0n;
          let s = 0n;
          for (;;) {
            const b = buf[j++] as number;
            x |= BigInt(b & 0x7f) << s;
            s += 7n;
            if ((b & 0x80) === 0) break;
          }
          items.push(scalarOrSpecial(type, { wire: 0, value: x }));
        }
      } else items.push(scalarOrSpecial(type, r));
    }
    return items;
  }
  return scalarOrSpecial(type, raws[raws.length - 1] as Raw);
}

export function decodeMessage(name: string, bytes: Uint8Array): Record<string, unknown> {
  const fields = messages[name];
  if (!fields) throw new ProtobufError(`no protobuf schema for ${name}`);
  const raw = readFields(bytes);
  const out: Record<string, unknown> = {};
  for (const [num, json, type, flags] of fields) {
    const rs = raw.get(num);
    if (!rs) continue;
    const value = decodeValue(type, rs, flags.includes('r'));
    if (flags.includes('i')) {
      if (value && typeof value === 'object') Object.assign(out, value);
      continue;
    }
    if (value === undefined) continue;
    if (flags.includes('o') && !flags.includes('p') && isZero(value)) continue;
    if (
      flags.includes('o') &&
      !flags.includes('p') &&
      type.startsWith('map:') &&
      Object.keys(value as object).length === 0
    )
      continue;
    out[json] = value;
  }
  return out;
}

/** True when the body starts with the Kubernetes protobuf magic. */
export function isKubernetesProtobuf(body: Uint8Array): boolean {
  return body.length >= 4 && MAGIC.every((b, i) => body[i] === b);
}

/** Kinds whose protobuf bodies the sandbox understands, as `apiVersion/kind`. */
export function decodableKinds(): string[] {
  return Object.keys(roots);
}

/**
 * meta/v1 kinds apimachinery registers into every group version (AddToGroupVersion): a clientset sends
 * them under its own group, e.g. the apiextensions clientset's DeleteOptions as apiextensions.k8s.io/v1.
 */
const GROUP_WIDE_META_KINDS: ReadonlySet<string> = new Set(['DeleteOptions']);

/** Decodes a full protobuf request body into a JSON object with apiVersion and kind. */
export function decodeKubernetesProtobuf(body: Uint8Array): Record<string, unknown> {
  if (!isKubernetesProtobuf(body)) throw new ProtobufError('missing the k8s protobuf prefix');
  const env = readFields(body.subarray(4));
  const typeMeta = env.get(1)?.[0]?.value;
  const rawBytes = env.get(2)?.[0]?.value;
  const tm = typeMeta instanceof Uint8Array ? readFields(typeMeta) : new Map<number, Raw[]>();
  const apiVersion = text(tm.get(1)?.[0]?.value ?? new Uint8Array());
  const kind = text(tm.get(2)?.[0]?.value ?? new Uint8Array());
  const root =
    roots[`${apiVersion}/${kind}`] ?? (GROUP_WIDE_META_KINDS.has(kind) ? roots[`meta.k8s.io/v1/${kind}`] : undefined);
  if (!root) throw new ProtobufError(`no protobuf schema for ${apiVersion}, Kind=${kind}`);
  const obj = decodeMessage(root, rawBytes instanceof Uint8Array ? rawBytes : new Uint8Array());
  return { apiVersion, kind, ...obj };
}
