// A labelled number in a stats strip.
import type { ReactNode } from 'react';

export type Tone = 'ok' | 'warn' | 'err' | 'info' | 'muted' | 'purple' | 'teal' | undefined;

export interface StatProps {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  tone?: Tone;
  title?: string;
}

export function Stat({ label, value, hint, tone, title }: StatProps) {
  return (
    <div className="stat" title={title}>
      <div className="label">{label}</div>
      <div className={`value ${tone ?? ''}`}>{value}</div>
      {hint !== undefined && <div className="hint">{hint}</div>}
    </div>
  );
}

export function Stats({ children }: { children: ReactNode }) {
  return <div className="stats">{children}</div>;
}

export function Badge({
  tone,
  children,
  title,
  'data-testid': testId,
}: {
  tone?: Tone;
  children: ReactNode;
  title?: string;
  'data-testid'?: string;
}) {
  return (
    <span className={`badge ${tone ?? ''}`} title={title} data-testid={testId}>
      {children}
    </span>
  );
}

export function Dot({ tone }: { tone?: Tone }) {
  return <span className={`dot ${tone ?? ''}`} />;
}
