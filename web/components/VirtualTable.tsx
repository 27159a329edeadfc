// A data table for lists that can be long (cache keys, queue keys, events): only the rows in view (and a few
// around them) are in the DOM, spacer rows keep the scroll height of the whole list, and a caption says how
// many items the list holds and how many of them there are in all, so nothing is cut off silently.
import { cloneElement, isValidElement, useRef } from 'react';
import type { ReactElement, ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Empty } from './Card';
import { fmtCount } from './format';

export interface VirtualTableProps<R> {
  rows: readonly R[];
  /** Renders one item as a <tr> carrying its key. */
  children: (row: R, index: number) => ReactElement;
  head?: ReactNode;
  /** Shown instead of the table when rows is empty. */
  empty?: ReactNode;
  /** Height of the scrolling box, px. */
  height: number;
  /** Expected height of one row, px (rows are measured once rendered). Default 25. */
  rowHeight?: number;
  /** How many items exist in all when rows is only part of them (a server limit, a filter). */
  total?: number;
  /** What the rows are, for the caption ("keys", "events"). */
  noun: string;
  /** Columns, for the spacer rows. */
  columns?: number;
  testId?: string;
}

/** "5,014 keys" or "500 of 5,014 keys": the caption under every long list. */
export function shownCaption(shown: number, total: number | undefined, noun: string): string {
  return total !== undefined && total > shown
    ? `${fmtCount(shown)} of ${fmtCount(total)} ${noun} shown`
    : `${fmtCount(shown)} ${noun}`;
}

export function VirtualTable<R>({
  rows,
  children,
  head,
  empty,
  height,
  rowHeight = 25,
  total,
  noun,
  columns = 1,
  testId,
}: VirtualTableProps<R>) {
  const box = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => box.current,
    estimateSize: () => rowHeight,
    overscan: 10,
    // Lets a render without a DOM (tests, the first paint) lay out the first screenful.
    initialRect: { width: 800, height },
  });
  if (rows.length === 0 && empty !== undefined) return <Empty>{empty}</Empty>;
  const items = v.getVirtualItems();
  const top = items[0]?.start ?? 0;
  const last = items[items.length - 1];
  const bottom = last ? v.getTotalSize() - last.end : 0;
  return (
    <>
      <div className="table-wrap" ref={box} style={{ maxHeight: height }} data-testid={testId}>
        <table className="data">
          {head !== undefined && (
            <thead>
              <tr>{head}</tr>
            </thead>
          )}
          <tbody>
            {top > 0 && (
              <tr aria-hidden="true" className="spacer">
                <td colSpan={columns} style={{ height: top }} />
              </tr>
            )}
            {items.map((it) => {
              const el = children(rows[it.index] as R, it.index);
              return isValidElement(el)
                ? cloneElement(el as ReactElement<Record<string, unknown>>, {
                    'data-index': it.index,
                    ref: v.measureElement,
                  })
                : el;
            })}
            {bottom > 0 && (
              <tr aria-hidden="true" className="spacer">
                <td colSpan={columns} style={{ height: bottom }} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <div className="table-caption" data-testid={testId ? `${testId}-count` : undefined}>
        {shownCaption(rows.length, total, noun)}
      </div>
    </>
  );
}
