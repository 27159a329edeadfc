// The recharts half of TimeSeriesChart: axes, tooltip, reference lines and the series, drawn at a known
// width. A module of its own so that recharts (most of the app's script) loads as a separate chunk.
import { Area, Bar, CartesianGrid, ComposedChart, Line, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { fmtClock } from './format';
import type { TimelineMarker } from './timeline-markers';
import type { ChartPoint, SeriesSpec } from './TimeSeriesChart';

const AXIS = { fill: '#7c8794', fontSize: 10 };

interface TipProps {
  active?: boolean;
  label?: number | string;
  payload?: readonly { dataKey?: unknown; value?: unknown; color?: string; name?: unknown }[];
}

export interface ChartDrawingProps {
  width: number;
  height: number;
  data: readonly ChartPoint[];
  series: readonly SeriesSpec[];
  format: (v: number) => string;
  reference?: { y: number; label: string };
  markers: readonly TimelineMarker[];
}

export default function ChartDrawing({ width, height, data, series, format, reference, markers }: ChartDrawingProps) {
  const first = data[0];
  const last = data[data.length - 1];
  const renderTip = ({ active, label, payload }: TipProps) => {
    if (!active || !payload || payload.length === 0) return null;
    return (
      <div className="chart-tip">
        <div className="dim">{fmtClock(Number(label))}</div>
        {payload.map((p) => (
          <div key={String(p.dataKey)} style={{ color: p.color }}>
            {String(p.name)}: {format(Number(p.value))}
          </div>
        ))}
      </div>
    );
  };
  return (
    <ComposedChart
      width={width}
      height={height}
      data={data as ChartPoint[]}
      margin={{ top: 4, right: 8, bottom: 0, left: 0 }}
    >
      <CartesianGrid stroke="#222930" vertical={false} />
      <XAxis
        dataKey="t"
        type="number"
        scale="time"
        domain={['dataMin', 'dataMax']}
        tickFormatter={(t: number) => fmtClock(t)}
        tick={AXIS}
        stroke="#2a313a"
        minTickGap={40}
      />
      <YAxis tick={AXIS} stroke="#2a313a" width={44} tickFormatter={format} allowDecimals={false} />
      <Tooltip content={renderTip} isAnimationActive={false} cursor={{ stroke: '#4fa3ff', strokeOpacity: 0.4 }} />
      {reference && <ReferenceLine y={reference.y} stroke="#7c8794" strokeDasharray="4 3" />}
      {first &&
        last &&
        markers
          .filter((m) => m.t >= first.t && m.t <= last.t)
          .map((m) => (
            <ReferenceLine
              key={`${m.t}-${m.label}`}
              x={m.t}
              stroke={m.tone === 'err' ? '#f85149' : '#d9a441'}
              strokeDasharray="3 3"
              label={{
                value: m.label,
                position: 'insideTopLeft',
                fill: m.tone === 'err' ? '#f85149' : '#d9a441',
                fontSize: 10,
              }}
            />
          ))}
      {series.map((s) => {
        const kind = s.kind ?? 'line';
        if (kind === 'area')
          return (
            <Area
              key={s.key}
              dataKey={s.key}
              name={s.label}
              stackId={s.stack}
              type="stepAfter"
              stroke={s.color}
              fill={s.color}
              fillOpacity={0.25}
              strokeWidth={1.2}
              isAnimationActive={false}
              dot={false}
            />
          );
        if (kind === 'bar')
          return (
            <Bar
              key={s.key}
              dataKey={s.key}
              name={s.label}
              stackId={s.stack}
              fill={s.color}
              isAnimationActive={false}
            />
          );
        return (
          <Line
            key={s.key}
            dataKey={s.key}
            name={s.label}
            type="monotone"
            stroke={s.color}
            strokeWidth={1.5}
            dot={false}
            isAnimationActive={false}
          />
        );
      })}
    </ComposedChart>
  );
}
