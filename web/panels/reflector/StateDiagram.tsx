// The reflector's state machine drawn as a graph: the current state lit, states it has been through
// outlined, and each transition labelled with what triggers it and how often it happened in this process.
import type { ReflectorState } from '../../../shared/protocol/events';
import type { InformerCounters } from '../../../shared/protocol/view';

const W = 124;
const H = 34;
const POS: Record<ReflectorState, { x: number; y: number }> = {
  idle: { x: 70, y: 58 },
  listing: { x: 250, y: 58 },
  watching: { x: 450, y: 58 },
  stopped: { x: 650, y: 58 },
  backoff: { x: 250, y: 172 },
  relisting: { x: 450, y: 172 },
};

export interface DiagramEdge {
  from: ReflectorState;
  to: ReflectorState;
  label: string;
  count?: number;
  /** Path in viewBox coordinates. */
  d: string;
  lx: number;
  ly: number;
}

const cx = (s: ReflectorState) => POS[s].x;

/** The drawn transitions with counts derived from the informer's counters. */
export function diagramEdges(c: InformerCounters): DiagramEdge[] {
  const firstLists = Math.max(0, c.lists - c.relists - c.listErrors);
  return [
    {
      from: 'idle',
      to: 'listing',
      label: 'start',
      d: `M${cx('idle') + W / 2},58 L${cx('listing') - W / 2},58`,
      lx: 160,
      ly: 50,
    },
    {
      from: 'listing',
      to: 'watching',
      label: 'list ok',
      count: firstLists,
      d: `M${cx('listing') + W / 2},58 L${cx('watching') - W / 2},58`,
      lx: 350,
      ly: 50,
    },
    {
      from: 'watching',
      to: 'watching',
      label: 'timeout → rewatch',
      count: Math.max(0, c.watches - c.lists),
      d: `M${cx('watching') - 24},${58 - H / 2} C${cx('watching') - 40},4 ${cx('watching') + 40},4 ${cx('watching') + 24},${58 - H / 2}`,
      lx: 450,
      ly: 10,
    },
    {
      from: 'watching',
      to: 'stopped',
      label: 'stop',
      d: `M${cx('watching') + W / 2},58 L${cx('stopped') - W / 2},58`,
      lx: 550,
      ly: 50,
    },
    {
      from: 'watching',
      to: 'relisting',
      label: '410 Gone',
      count: c.expired,
      d: `M${cx('watching') - 22},${58 + H / 2} L${cx('relisting') - 22},${172 - H / 2}`,
      lx: 392,
      ly: 142,
    },
    {
      from: 'relisting',
      to: 'watching',
      label: 'list ok',
      count: c.relists,
      d: `M${cx('relisting') + 22},${172 - H / 2} L${cx('watching') + 22},${58 + H / 2}`,
      lx: 508,
      ly: 118,
    },
    {
      from: 'watching',
      to: 'backoff',
      label: 'error',
      count: c.backoffs,
      d: `M${cx('watching') - W / 2},${58 + 10} L${cx('backoff') + W / 2},${172 - 10}`,
      lx: 338,
      ly: 98,
    },
    {
      from: 'listing',
      to: 'backoff',
      label: 'list error',
      count: c.listErrors,
      d: `M${cx('listing') - 22},${58 + H / 2} L${cx('backoff') - 22},${172 - H / 2}`,
      lx: 180,
      ly: 118,
    },
    {
      from: 'backoff',
      to: 'listing',
      label: 'retry',
      d: `M${cx('backoff') + 22},${172 - H / 2} L${cx('listing') + 22},${58 + H / 2}`,
      lx: 298,
      ly: 124,
    },
  ];
}

export function StateDiagram({
  current,
  visited,
  counters,
}: {
  current: ReflectorState;
  visited: ReadonlySet<ReflectorState>;
  counters: InformerCounters;
}) {
  const edges = diagramEdges(counters);
  const hot = current === 'backoff' || current === 'relisting';
  return (
    <svg
      viewBox="0 0 730 200"
      width="100%"
      style={{ maxHeight: 220, display: 'block' }}
      role="img"
      aria-label={`reflector state: ${current}`}
    >
      <defs>
        <marker
          id="sm-arrow"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M0,0 L10,5 L0,10 z" fill="#58626d" />
        </marker>
      </defs>
      {edges.map((e) => (
        <g key={`${e.from}-${e.to}`}>
          <path
            d={e.d}
            fill="none"
            stroke={e.count ? '#58626d' : '#2f363f'}
            strokeWidth={1.4}
            markerEnd="url(#sm-arrow)"
          />
          <text x={e.lx} y={e.ly} fill="#7c8794" fontSize={10.5} textAnchor="middle" fontFamily="var(--mono)">
            {e.label}
            {e.count ? <tspan fill="#aab4c0"> ×{e.count}</tspan> : null}
          </text>
        </g>
      ))}
      {(Object.keys(POS) as ReflectorState[]).map((s) => {
        const isCur = s === current;
        const fill = isCur ? (hot ? '#3a2c0c' : s === 'stopped' ? '#20262e' : '#133157') : '#181d23';
        const stroke = isCur
          ? hot
            ? '#d29922'
            : s === 'stopped'
              ? '#58626d'
              : '#4fa3ff'
          : visited.has(s)
            ? '#4a5563'
            : '#2a313a';
        return (
          <g key={s} data-testid={isCur ? 'reflector-current-state' : undefined}>
            {isCur && (
              <rect
                x={POS[s].x - W / 2 - 4}
                y={POS[s].y - H / 2 - 4}
                width={W + 8}
                height={H + 8}
                rx={21}
                fill="none"
                stroke={stroke}
                strokeOpacity={0.35}
                strokeWidth={3}
              />
            )}
            <rect
              x={POS[s].x - W / 2}
              y={POS[s].y - H / 2}
              width={W}
              height={H}
              rx={17}
              fill={fill}
              stroke={stroke}
              strokeWidth={1.3}
            />
            <text
              x={POS[s].x}
              y={POS[s].y + 4}
              textAnchor="middle"
              fontSize={12.5}
              fontFamily="var(--mono)"
              fill={isCur ? '#ffffff' : visited.has(s) ? '#aab4c0' : '#58626d'}
              fontWeight={isCur ? 600 : 400}
            >
              {s}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
