// The Reflector's step function against the protocol's transition table, by construction rather than by
// sampling fault paths: its edge list is the table, and a walk of every state next() can reach from the
// initial one takes every edge of the table and no other.
import { describe, expect, it } from 'vitest';
import { REFLECTOR_TRANSITIONS, transitionId } from '../../../shared/protocol/reflector-machine';
import {
  EDGES,
  INITIAL_STATUS,
  next,
  pageSizeFor,
  relistResourceVersion,
  type ReflectorInput,
  type ReflectorStatus,
} from './reflector-step';

/** One input of each type; payloads that reach every branch (paginated both ways, a version). */
const INPUTS: readonly ReflectorInput[] = [
  { type: 'list' },
  { type: 'watch' },
  { type: 'backoff' },
  { type: 'stop' },
  { type: 'ended', reason: 'watch closed' },
  { type: 'versionUnavailable' },
  { type: 'listed', paginated: false },
  { type: 'listed', paginated: true },
  { type: 'synced', resourceVersion: '7' },
  { type: 'progress', resourceVersion: '8' },
];

/** The fields that choose an edge; the rest (versions, reasons) only ride along. */
const shape = (s: ReflectorStatus): string => `${s.phase}/${s.listedOnce}`;

function walk(): { edges: Set<string>; states: number } {
  const seen = new Map<string, ReflectorStatus>([[shape(INITIAL_STATUS), INITIAL_STATUS]]);
  const todo = [INITIAL_STATUS];
  const edges = new Set<string>();
  for (let s = todo.pop(); s; s = todo.pop()) {
    for (const input of INPUTS) {
      const [after, effects] = next(s, input);
      for (const e of effects) {
        expect(e.from).toBe(s.phase);
        expect(e.to).toBe(after.phase);
        edges.add(transitionId(e.from, e.to));
      }
      if (effects.length === 0) expect(after.phase).toBe(s.phase);
      if (!seen.has(shape(after))) {
        seen.set(shape(after), after);
        todo.push(after);
      }
    }
  }
  return { edges, states: seen.size };
}

describe('the reflector step function', () => {
  const table = new Set(REFLECTOR_TRANSITIONS.map((t) => transitionId(t.from, t.to)));

  it('may take exactly the edges of the protocol table', () => {
    expect([...EDGES].sort()).toEqual([...table].sort());
  });

  it('takes every edge of the table from the states it can reach, and no other', () => {
    const { edges, states } = walk();
    expect([...edges].sort()).toEqual([...table].sort());
    expect(states).toBeGreaterThan(6);
  });

  it('a phase change is reported once with the reason of the cycle that ended; staying reports nothing', () => {
    let [s, effects] = next(INITIAL_STATUS, { type: 'list' });
    expect(effects).toEqual([{ type: 'state', from: 'idle', to: 'listing', reason: 'initial' }]);
    [s, effects] = next(s, { type: 'list' });
    expect(effects).toEqual([]);
    [s] = next(s, { type: 'ended', reason: 'boom' });
    [s, effects] = next(s, { type: 'backoff' });
    expect(effects).toEqual([{ type: 'state', from: 'listing', to: 'backoff', reason: 'boom' }]);
    [, effects] = next(s, { type: 'stop' });
    expect(effects).toEqual([{ type: 'state', from: 'backoff', to: 'stopped', reason: 'stop requested' }]);
  });

  it('a move off the table is refused: the phase stays and nothing is reported', () => {
    const watching: ReflectorStatus = { ...INITIAL_STATUS, phase: 'watching', listedOnce: true };
    expect(next(watching, { type: 'list' })).toEqual([watching, []]);
    expect(next({ ...INITIAL_STATUS, phase: 'stopped' }, { type: 'list' })[0].phase).toBe('stopped');
  });

  it('relistResourceVersion and the page size follow the data the state carries', () => {
    expect(relistResourceVersion(INITIAL_STATUS)).toBe('0');
    const [synced] = next(INITIAL_STATUS, { type: 'synced', resourceVersion: '10' });
    expect(relistResourceVersion(synced)).toBe('10');
    expect(pageSizeFor(synced, '10', 0)).toBe(0);
    const [gone] = next(synced, { type: 'versionUnavailable' });
    expect(relistResourceVersion(gone)).toBe('');
    const [paged] = next(gone, { type: 'listed', paginated: true });
    expect(relistResourceVersion(paged)).toBe('10');
    expect(pageSizeFor(paged, '10', 0)).toBeGreaterThan(0);
    expect(pageSizeFor(paged, '10', 3)).toBe(3);
  });
});
