// The only recharts wrapper: every time-series chart of the dashboard goes through here so they share
// axes, colours, tooltips and the no-animation rule for streaming data.
import { memo, startTransition, useEffect, useRef, useState } from 'react';
import { Area, Bar, CartesianGrid, ComposedChart, Line, ReferenceLine, Tooltip, XAxis, YAxis } from 'recharts';
import { useThrottled } from '../client/hooks';
import { fmtClock } from './format';
import { useTimelineMarkers } from './timeline-markers';

export interface SeriesSpec {
  key: string;
  label: string;
  color: string;
  /** 'area' stacks with other areas sharing `stack`; 'line' draws over them. Default 'line'. */
  kind?: 'line' | 'area' | 'bar';
  stack?: string;
}

export type ChartPoint = { t: number } & Record<string, number>;

export interface TimeSeriesChartProps {
  data: readonly ChartPoint[];
  series: readonly SeriesSpec[];
  height?: number;
  /** Formats y values in ticks and the tooltip. */
  format?: (v: number) => string;
  /** Draws a dashed horizontal line, e.g. the worker count. */
  reference?: { y: number; label: string };
  /** Shows the latest value of each series in the legend. Default true. */
  legendValues?: boolean;
}

const AXIS = { fill: '#7c8794', fontSize: 10 };

/**
 * The box's width, once known. Set from an effect in a transition rather than a layout effect: the panel
 * around a chart paints first, and drawing the chart (recharts' most expensive moment, its first mount)
 * happens after, in slices that leave the page responsive.
 */
function useWidth(): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver((entries) => {
      for (const e of entries) {
        const w = Math.floor(e.contentRect.width);
        startTransition(() => setWidth(w));
      }
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}

interface TipProps {
  active?: boolean;
  label?: number | string;
  payload?: readonly { dataKey?: unknown; value?: unknown; color?: string; name?: unknown }[];
}

function TimeSeriesChartView({
  data,
  series,
  height = 150,
  format = (v) => String(Math.round(v * 100) / 100),
  reference,
  legendValues = true,
}: TimeSeriesChartProps) {
  const [ref, width] = useWidth();
  const markers = useTimelineMarkers();
  const first = data.length > 0 ? data[0] : undefined;
  const last = data.length > 0 ? data[data.length - 1] : undefined;
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
    <div className="chart">
      <div className="chart-legend">
        {series.map((s) => (
          <span key={s.key}>
            <i style={{ background: s.color }} />
            {s.label}
            {legendValues && last && <b className="num"> {format(last[s.key] ?? 0)}</b>}
          </span>
        ))}
        {reference && (
          <span>
            <i className="dashed" />
            {reference.label}
          </span>
        )}
      </div>
      <div ref={ref} style={{ height }}>
        {width > 0 && data.length > 0 && (
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
                    stroke="#d9a441"
                    strokeDasharray="3 3"
                    label={{ value: m.label, position: 'insideTopLeft', fill: '#d9a441', fontSize: 10 }}
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
        )}
        {data.length === 0 && <div className="empty">no samples yet</div>}
      </div>
    </div>
  );
}

/**
 * The same points in the same series draw the same chart: panels rebuild their series on every render (a
 * store update, the clock tick), and redrawing a recharts chart is the most expensive thing a panel does, so
 * the chart redraws only when a value it shows changed.
 */
export function sameChart(a: TimeSeriesChartProps, b: TimeSeriesChartProps): boolean {
  if (a.height !== b.height || a.format !== b.format || a.legendValues !== b.legendValues) return false;
  if (a.reference?.y !== b.reference?.y || a.reference?.label !== b.reference?.label) return false;
  if (a.series.length !== b.series.length || a.data.length !== b.data.length) return false;
  for (let i = 0; i < a.series.length; i++) {
    const x = a.series[i] as SeriesSpec;
    const y = b.series[i] as SeriesSpec;
    if (x.key !== y.key || x.label !== y.label || x.color !== y.color || x.kind !== y.kind || x.stack !== y.stack)
      return false;
  }
  if (a.data === b.data) return true;
  for (let i = 0; i < a.data.length; i++) {
    const p = a.data[i] as ChartPoint;
    const q = b.data[i] as ChartPoint;
    if (p.t !== q.t) return false;
    for (const s of a.series) if (p[s.key] !== q[s.key]) return false;
  }
  return true;
}

const Chart = memo(TimeSeriesChartView, sameChart);

/**
 * Under a busy stream the newest bucket changes on every store update; a chart reads the same a second later,
 * so it redraws at most once per CHART_REDRAW_MS and the panel around it stays cheap to re-render.
 */
const CHART_REDRAW_MS = 1000;

export function TimeSeriesChart(props: TimeSeriesChartProps) {
  const shown = useThrottled(props, CHART_REDRAW_MS, sameChart);
  return <Chart {...shown} />;
}
