// Small helpers shared by the sandbox's handlers: JSON shapes, time formats, name generation.
import type { KubeObject } from '../../../shared/models/object';

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Structural equality of JSON values (key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

/** metav1.Time: RFC 3339 with whole seconds, UTC. */
export function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** names.SimpleNameGenerator: prefix cut to 58 characters plus 5 random characters. */
export function generateName(prefix: string, random: () => number): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += GENERATE_ALPHABET[Math.floor(random() * GENERATE_ALPHABET.length)];
  return prefix.slice(0, 58) + suffix;
}

/** The spec-like part of an object: everything outside metadata, kind, apiVersion and status. */
export function specPart(o: KubeObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o))
    if (k !== 'metadata' && k !== 'kind' && k !== 'apiVersion' && k !== 'status') out[k] = v;
  return out;
}

export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Human durations as kubectl's Age column prints them (apimachinery duration.HumanDuration, shortened). */
export function humanDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return `${m}m${s % 60 ? `${s % 60}s` : ''}`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return `${h}h${m % 60 ? `${m % 60}m` : ''}`;
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (d < 8) return `${d}d${h % 24 ? `${h % 24}h` : ''}`;
  if (d < 365 * 2) return `${d}d`;
  return `${Math.floor(d / 365)}y`;
}
