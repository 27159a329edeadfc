// The framed block every panel is made of: a small caps title, optional tools on the right, a body.
import type { ReactNode } from 'react';

export interface CardProps {
  title: ReactNode;
  right?: ReactNode;
  children: ReactNode;
  flush?: boolean;
  className?: string;
  testId?: string;
}

export function Card({ title, right, children, flush, className, testId }: CardProps) {
  return (
    <section className={`card ${className ?? ''}`} data-testid={testId}>
      <header className="card-head">
        <span className="title">{title}</span>
        {right !== undefined && <span className="right">{right}</span>}
      </header>
      <div className={flush ? 'card-body flush' : 'card-body'}>{children}</div>
    </section>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}
