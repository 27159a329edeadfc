// One teaching block: a few sentences on the left, this process's live numbers for the same block on the
// right, and a link to the panel that shows it in full.
import type { ReactNode } from 'react';
import { Card } from '../../components/Card';
import { navigate } from '../../client/route';
import type { PanelId } from '../../client/route';

export function Block({
  n,
  title,
  panel,
  children,
  live,
  missing,
}: {
  n: number | string;
  title: string;
  panel: PanelId;
  children: ReactNode;
  /** Facts (dt/dd pairs) from this process; undefined while the block has not started; null: no facts column. */
  live: ReactNode;
  /** Said instead of the facts while live is undefined. */
  missing?: string;
}) {
  return (
    <Card
      title={`${n}. ${title}`}
      right={
        <a href="#" onClick={(e) => (e.preventDefault(), navigate({ panel }))}>
          open panel →
        </a>
      }
    >
      <div className="learn-block">
        <div className="learn-text">{children}</div>
        {live !== null && <dl className="kv">{live ?? <dd>{missing}</dd>}</dl>}
      </div>
    </Card>
  );
}
