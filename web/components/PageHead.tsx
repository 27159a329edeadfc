// The top of every panel page: a title, a one-line explanation, and the tools on the right (usually the
// focus picker choosing which informer or controller the page shows). EmptyPage is the page a panel shows
// before the runtime has anything for it.
import type { ReactNode } from 'react';
import { Card, Empty } from './Card';
import { FocusSelect, type FocusSelectProps } from './Select';

export interface PageHeadProps {
  title: ReactNode;
  /** Class of the h1, e.g. "mono" for a key. Default none. */
  titleClassName?: string;
  sub?: ReactNode;
  /** Shown between the explanation and the tools. Default none. */
  actions?: ReactNode;
  /** The focus picker, first among the tools; its label defaults to its field. Default none. */
  focus?: Omit<FocusSelectProps, 'label'> & { label?: string };
  /** Further tools after the focus picker. Default none. */
  children?: ReactNode;
}

export function PageHead({ title, titleClassName, sub, actions, focus, children }: PageHeadProps) {
  return (
    <div className="page-head">
      <h1 className={titleClassName}>{title}</h1>
      {sub !== undefined && <span className="sub">{sub}</span>}
      {actions}
      {(focus !== undefined || children !== undefined) && (
        <div className="tools">
          {focus && <FocusSelect {...focus} label={focus.label ?? focus.field} />}
          {children}
        </div>
      )}
    </div>
  );
}

export interface EmptyPageProps {
  testId: string;
  title: string;
  /** Title of the one card the empty page shows. */
  card: string;
  children: ReactNode;
}

export function EmptyPage({ testId, title, card, children }: EmptyPageProps) {
  return (
    <div className="page" data-testid={testId}>
      <PageHead title={title} />
      <Card title={card}>
        <Empty>{children}</Empty>
      </Card>
    </div>
  );
}
