// The only recharts wrapper: every time-series chart of the dashboard goes through here (and its drawing in
// ChartDrawing) so they share axes, colours, tooltips and the no-animation rule for streaming data.
import { lazy, memo, startTransition, Suspense, useEffect, useRef, useState } from 'react';
import { useThrottled } from '../client/hooks';
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

// recharts is most of the app's script: it loads in a chunk of its own, after the first paint of a panel.
const ChartDrawing = lazy(() => import('./ChartDrawing'));

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
  const last = data.length > 0 ? data[data.length - 1] : undefined;
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
          <Suspense fallback={null}>
            <ChartDrawing
              width={width}
              height={height}
              data={data}
              series={series}
              format={format}
              markers={markers}
              {...(reference ? { reference } : {})}
            />
          </Suspense>
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
