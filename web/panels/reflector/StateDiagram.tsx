// The reflector's state machine drawn as a graph: the current state lit, states it has been through
// outlined, and each transition of the shared table labelled with its trigger and how often it happened.
import type { ReflectorState } from '../../../shared/protocol/reflector-machine';
import type { InformerCounters } from '../../../shared/protocol/view';
import {
  BOX_H as H,
  BOX_W as W,
  REFLECTOR_STATES,
  STATE_POS as POS,
  VIEW_H,
  VIEW_W,
  diagramEdges,
  rewatches,
} from './state-diagram-model';

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
  const again = rewatches(counters);
  const w = POS.watching;
  const hot = current === 'backoff' || current === 'relisting';
  return (
    <svg
      viewBox={`0 0 ${VIEW_W} ${VIEW_H}`}
      width="100%"
      style={{ maxHeight: 270, display: 'block' }}
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
      <g data-testid="reflector-rewatch">
        <path
          d={`M${w.x - 24},${w.y - H / 2} C${w.x - 40},${w.y - 62} ${w.x + 40},${w.y - 62} ${w.x + 24},${w.y - H / 2}`}
          fill="none"
          stroke={again ? '#58626d' : '#2f363f'}
          strokeWidth={1.4}
          strokeDasharray="3 3"
          markerEnd="url(#sm-arrow)"
        />
        <text x={w.x} y={w.y - 52} fill="#7c8794" fontSize={10.5} textAnchor="middle" fontFamily="var(--mono)">
          watch again, no change
          {again ? <tspan fill="#aab4c0"> ×{again}</tspan> : null}
        </text>
      </g>
      {edges.map((e) => (
        <g key={`${e.from}-${e.to}`} data-testid={`reflector-edge-${e.from}-${e.to}`}>
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
      {REFLECTOR_STATES.map((s) => {
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
