// A small structural diff between two JSON values as JSON-pointer operations (RFC 6902 shaped), enough to
// show what changed between two versions of an object. Arrays compare by position.
import type { DiffOp } from './socket';

function escape(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function diffJson(before: unknown, after: unknown, path = '', out: DiffOp[] = []): DiffOp[] {
  if (before === after) return out;
  if (isObject(before) && isObject(after)) {
    for (const k of Object.keys(before)) {
      const p = `${path}/${escape(k)}`;
      if (!(k in after)) out.push({ op: 'remove', path: p, old: before[k] });
      else diffJson(before[k], after[k], p, out);
    }
    for (const k of Object.keys(after))
      if (!(k in before)) out.push({ op: 'add', path: `${path}/${escape(k)}`, value: after[k] });
    return out;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const n = Math.min(before.length, after.length);
    for (let i = 0; i < n; i++) diffJson(before[i], after[i], `${path}/${i}`, out);
    for (let i = n; i < after.length; i++) out.push({ op: 'add', path: `${path}/${i}`, value: after[i] });
    for (let i = before.length - 1; i >= n; i--) out.push({ op: 'remove', path: `${path}/${i}`, old: before[i] });
    return out;
  }
  if (typeof before === 'number' && typeof after === 'number' && Number.isNaN(before) && Number.isNaN(after))
    return out;
  if (before === undefined) out.push({ op: 'add', path, value: after });
  else if (after === undefined) out.push({ op: 'remove', path, old: before });
  else out.push({ op: 'replace', path, value: after, old: before });
  return out;
}
