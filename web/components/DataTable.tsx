// The panels' data table: header cells, one row per item, an optional scrolling box, and a message in place
// of the table when there is nothing to list.
import type { ReactNode } from 'react';
import { Empty } from './Card';

export interface DataTableProps<R> {
  rows: readonly R[];
  /** Renders one item as a <tr> carrying its key. */
  children: (row: R) => ReactNode;
  /** Header cells (<th>s); no header row when absent. */
  head?: ReactNode;
  /** Shown instead of the table when rows is empty. Default: the table, empty. */
  empty?: ReactNode;
  /** Wraps the table in a scrolling box: true, or the box's max height in px. Default no box. */
  scroll?: boolean | number;
  testId?: string;
}

export function DataTable<R>({ rows, children, head, empty, scroll, testId }: DataTableProps<R>) {
  if (rows.length === 0 && empty !== undefined) return <Empty>{empty}</Empty>;
  const table = (
    <table className="data" data-testid={testId}>
      {head !== undefined && (
        <thead>
          <tr>{head}</tr>
        </thead>
      )}
      <tbody>{rows.map(children)}</tbody>
    </table>
  );
  if (scroll === undefined || scroll === false) return table;
  return (
    <div className="table-wrap" style={scroll === true ? undefined : { maxHeight: scroll }}>
      {table}
    </div>
  );
}
