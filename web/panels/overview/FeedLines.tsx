// The lines from each informer to the controllers it feeds, drawn in the map's left gutter: one shared
// informer per kind, fanned out to every controller whose handlers it notifies. Positions are measured from
// the lanes once laid out (and again when the lanes or the page size change), so the lines follow the boxes.
import { useLayoutEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';

export interface FeedEdge {
  informer: string;
  controller: string;
}

interface Drawn {
  key: string;
  d: string;
  color: string;
  informer: string;
  controller: string;
}

const GUTTER = 40;
const COLORS = ['#58a6ff', '#3fb950', '#d29922', '#bc8cff', '#39c5cf', '#f778ba', '#ff9b50'];

function centerY(el: Element, box: DOMRect): number {
  const r = el.getBoundingClientRect();
  return r.top - box.top + Math.min(r.height / 2, 40);
}

export function FeedLines({ edges, children }: { edges: readonly FeedEdge[]; children: ReactNode }) {
  const box = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState<Drawn[]>([]);
  const signature = edges.map((e) => `${e.informer}>${e.controller}`).join('|');
  useLayoutEffect(() => {
    const root = box.current;
    if (!root) return;
    const measure = () => {
      const b = root.getBoundingClientRect();
      const informers = [...new Set(edges.map((e) => e.informer))];
      const out: Drawn[] = [];
      for (const e of edges) {
        const from = root.querySelector(`[data-feed-informer="${CSS.escape(e.informer)}"]`);
        const to = root.querySelector(`[data-feed-controller="${CSS.escape(e.controller)}"]`);
        if (!from || !to) continue;
        const i = informers.indexOf(e.informer);
        // Each informer has its own lane in the gutter, so lines from different informers do not merge.
        const x = 6 + ((GUTTER - 14) * i) / Math.max(1, informers.length - 1 || 1);
        const y1 = centerY(from, b);
        const y2 = centerY(to, b);
        out.push({
          key: `${e.informer}>${e.controller}`,
          d: `M ${GUTTER} ${y1} H ${x + 6} Q ${x} ${y1} ${x} ${y1 + 6} V ${y2 - 6} Q ${x} ${y2} ${x + 6} ${y2} H ${GUTTER - 2}`,
          color: COLORS[i % COLORS.length] as string,
          informer: e.informer,
          controller: e.controller,
        });
      }
      setDrawn(out);
    };
    measure();
    const ro = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    ro?.observe(root);
    return () => ro?.disconnect();
    // The edges are compared by their signature: a new array with the same edges does not re-measure.
  }, [signature]);
  return (
    <div className="feed-wrap" ref={box}>
      <svg className="feed-lines" width={GUTTER} aria-hidden="true" data-testid="feed-lines">
        {drawn.map((l) => (
          <path key={l.key} d={l.d} stroke={l.color} data-edge={l.key} markerEnd="url(#feed-arrow)">
            <title>{`${l.informer} feeds ${l.controller}`}</title>
          </path>
        ))}
        <defs>
          <marker id="feed-arrow" viewBox="0 0 6 6" refX="5" refY="3" markerWidth="6" markerHeight="6" orient="auto">
            <path d="M0,0 L6,3 L0,6 z" fill="context-stroke" />
          </marker>
        </defs>
      </svg>
      {children}
    </div>
  );
}
