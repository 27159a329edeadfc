// Plain bar primitives (no recharts): a bucketed histogram and horizontal breakdown rows. Dense, cheap to
// re-render many times a second, and readable in server-rendered tests.
import type { ReactNode } from 'react';
import { fmtGrouped } from './format';

export interface HistogramBar {
  label: string;
  count: number;
  title?: string;
}

export function HistogramBars({ bars, color = 'var(--accent)' }: { bars: readonly HistogramBar[]; color?: string }) {
  const max = Math.max(1, ...bars.map((b) => b.count));
  return (
    <div>
      <div className="bars">
        {bars.map((b) => (
          <div
            key={b.label}
            className={b.count === 0 ? 'bar zero' : 'bar'}
            style={{
              height: b.count === 0 ? 1 : `${Math.max(3, (b.count / max) * 100)}%`,
              background: b.count ? color : undefined,
            }}
            title={b.title ?? `${b.label}: ${b.count}`}
          />
        ))}
      </div>
      <div className="bar-axis">
        {bars.map((b, i) => (
          <span key={b.label}>{i % 3 === 0 ? b.label : ''}</span>
        ))}
      </div>
    </div>
  );
}

export interface BreakdownRow {
  label: ReactNode;
  value: number;
  color: string;
  display?: string;
}

export function Breakdown({ rows }: { rows: readonly BreakdownRow[] }) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  return (
    <div>
      {rows.map((r, i) => (
        <div className="hbar" key={i}>
          <span className="dim">{r.label}</span>
          <span className="track">
            <span
              className="fill"
              style={{ display: 'block', width: `${(r.value / max) * 100}%`, background: r.color }}
            />
          </span>
          <span className="num" style={{ textAlign: 'right' }}>
            {r.display ?? fmtGrouped(r.value)}
          </span>
        </div>
      ))}
    </div>
  );
}
