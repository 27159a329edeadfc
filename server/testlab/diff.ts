// Comparing end states: what a perturbed run left different from the reference, minus the fields that
// differ between two unperturbed runs already (learned as masks, Sieve-style: nondeterminism is not a bug).
import { diffJson } from '../../shared/protocol/json-diff';
import type { EndState } from './end-state';

export interface Difference {
  /** The object's key in the end state. */
  key: string;
  /** missing: the reference has it, the run does not; extra: the other way round; changed: a field differs. */
  kind: 'missing' | 'extra' | 'changed';
  /** JSON pointer of the field, for changed. */
  path?: string;
  reference?: unknown;
  run?: unknown;
}

/** "key" masks a whole object; "key path" one field and everything under it. */
export type Masks = ReadonlySet<string>;

function masked(masks: Masks, key: string, path = ''): boolean {
  if (masks.has(key)) return true;
  for (let p = path; p !== ''; p = p.slice(0, p.lastIndexOf('/'))) if (masks.has(`${key} ${p}`)) return true;
  return false;
}

export function diffStates(reference: EndState, run: EndState, masks: Masks = new Set()): Difference[] {
  const out: Difference[] = [];
  for (const [key, ref] of reference) {
    if (masked(masks, key)) continue;
    if (!run.has(key)) {
      out.push({ key, kind: 'missing', reference: ref });
      continue;
    }
    for (const d of diffJson(ref, run.get(key))) {
      if (masked(masks, key, d.path)) continue;
      out.push({ key, kind: 'changed', path: d.path, reference: d.old, run: d.value });
    }
  }
  for (const [key, v] of run) if (!reference.has(key) && !masked(masks, key)) out.push({ key, kind: 'extra', run: v });
  return out;
}

/** The masks two unperturbed runs teach: every object and field where they differ. */
export function learnMasks(a: EndState, b: EndState): Set<string> {
  const masks = new Set<string>();
  for (const d of diffStates(a, b)) masks.add(d.kind === 'changed' ? `${d.key} ${d.path ?? ''}` : d.key);
  return masks;
}

export function describeDifference(d: Difference): string {
  const show = (v: unknown): string => {
    const s = JSON.stringify(v);
    return s === undefined ? 'nothing' : s.length > 160 ? `${s.slice(0, 160)}…` : s;
  };
  if (d.kind === 'missing') return `${d.key}: in the reference end state, missing from this run`;
  if (d.kind === 'extra') return `${d.key}: left by this run, not in the reference end state`;
  return `${d.key} ${d.path ?? ''}: reference ${show(d.reference)}, this run ${show(d.run)}`;
}
