// Geometry and counts for the reflector's state diagram. The edges are the shared transition table
// (shared/protocol/reflector-machine.ts), not a list of our own: only where each state sits is decided here.
import {
  REFLECTOR_STATES,
  REFLECTOR_TRANSITIONS,
  transitionId,
  type ReflectorState,
  type ReflectorTransition,
} from '../../../shared/protocol/reflector-machine';
import type { InformerCounters } from '../../../shared/protocol/view';

export const BOX_W = 124;
export const BOX_H = 34;
export const VIEW_W = 760;
export const VIEW_H = 250;

export const STATE_POS: Record<ReflectorState, { x: number; y: number }> = {
  idle: { x: 75, y: 70 },
  listing: { x: 265, y: 70 },
  watching: { x: 505, y: 70 },
  backoff: { x: 265, y: 205 },
  relisting: { x: 505, y: 205 },
  stopped: { x: 690, y: 205 },
};

export interface DiagramEdge {
  /** Edges of the table this arrow stands for (several when the arrows into "stopped" are drawn as one). */
  edges: readonly ReflectorTransition[];
  from: ReflectorState | 'any';
  to: ReflectorState;
  label: string;
  count: number;
  /** Path in viewBox coordinates. */
  d: string;
  lx: number;
  ly: number;
}

/** Where the ray from a box's centre towards (dx, dy) leaves the box (plus a small margin). */
function exit(s: ReflectorState, dx: number, dy: number): { x: number; y: number } {
  const { x, y } = STATE_POS[s];
  const hw = BOX_W / 2 + 3;
  const hh = BOX_H / 2 + 3;
  const t = Math.min(dx === 0 ? Infinity : hw / Math.abs(dx), dy === 0 ? Infinity : hh / Math.abs(dy));
  return { x: x + dx * t, y: y + dy * t };
}

const r1 = (n: number): number => Math.round(n * 10) / 10;

/** A straight arrow between two boxes, shifted sideways when the reverse edge is drawn too. */
function arrow(from: ReflectorState, to: ReflectorState, paired: boolean) {
  const a = STATE_POS[from];
  const b = STATE_POS[to];
  const len = Math.hypot(b.x - a.x, b.y - a.y);
  const ux = (b.x - a.x) / len;
  const uy = (b.y - a.y) / len;
  // The right-hand normal of the direction of travel: a pair's two arrows sit on opposite sides.
  const nx = -uy;
  const ny = ux;
  const shift = paired ? 9 : 0;
  const p = exit(from, ux, uy);
  const q = exit(to, -ux, -uy);
  const off = (pt: { x: number; y: number }) => ({ x: pt.x + nx * shift, y: pt.y + ny * shift });
  const s = off(p);
  const e = off(q);
  const side = paired ? 1 : -1;
  const lx = (s.x + e.x) / 2 + nx * 13 * side;
  const ly = (s.y + e.y) / 2 + ny * 13 * side + 3;
  return { d: `M${r1(s.x)},${r1(s.y)} L${r1(e.x)},${r1(e.y)}`, lx: r1(lx), ly: r1(ly) };
}

const countOf = (c: InformerCounters, t: ReflectorTransition): number =>
  c.transitions?.[transitionId(t.from, t.to)] ?? 0;

/**
 * The drawn arrows: one per edge of the table, except that every edge into "stopped" is one arrow from
 * "any state" (they all mean the same thing, and five lines across the diagram would say less).
 */
export function diagramEdges(c: InformerCounters): DiagramEdge[] {
  const has = new Set(REFLECTOR_TRANSITIONS.map((t) => transitionId(t.from, t.to)));
  const out: DiagramEdge[] = [];
  const stops = REFLECTOR_TRANSITIONS.filter((t) => t.to === 'stopped');
  for (const t of REFLECTOR_TRANSITIONS) {
    if (t.to === 'stopped') continue;
    const g = arrow(t.from, t.to, has.has(transitionId(t.to, t.from)));
    out.push({ edges: [t], from: t.from, to: t.to, label: t.trigger, count: countOf(c, t), ...g });
  }
  if (stops.length > 0) {
    const s = STATE_POS.stopped;
    const top = s.y - BOX_H / 2 - 3;
    out.push({
      edges: stops,
      from: 'any',
      to: 'stopped',
      label: `${stops[0]?.trigger ?? 'stop'} (any state)`,
      count: stops.reduce((n, t) => n + countOf(c, t), 0),
      d: `M${s.x},${top - 42} L${s.x},${top}`,
      lx: s.x,
      ly: top - 48,
    });
  }
  return out;
}

/**
 * Watches opened again without a state change (a server timeout or a clean close): every watch start
 * follows either a change into "watching" or one of these.
 */
export function rewatches(c: InformerCounters): number {
  const into = REFLECTOR_TRANSITIONS.filter((t) => t.to === 'watching').reduce((n, t) => n + countOf(c, t), 0);
  return Math.max(0, c.watches - into);
}

/** The states the informer has been in: idle, the current one, and every target of a counted change. */
export function visitedStates(c: InformerCounters, current: ReflectorState): Set<ReflectorState> {
  const visited = new Set<ReflectorState>(['idle', current]);
  for (const t of REFLECTOR_TRANSITIONS) if (countOf(c, t) > 0) visited.add(t.to);
  return visited;
}

export interface LegendRow {
  edge: string;
  detail: string;
}

/** One row per distinct meaning: the edges into "stopped" share one. */
export function legendRows(): LegendRow[] {
  const rows: LegendRow[] = [];
  const seen = new Map<string, LegendRow>();
  for (const t of REFLECTOR_TRANSITIONS) {
    const prior = seen.get(t.detail);
    if (prior) {
      if (t.to === 'stopped') prior.edge = 'any → stopped';
      continue;
    }
    const row = { edge: `${t.from} → ${t.to}`, detail: t.detail };
    seen.set(t.detail, row);
    rows.push(row);
  }
  return rows;
}

export { REFLECTOR_STATES };
