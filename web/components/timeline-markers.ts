// Moments every time-series chart marks with a vertical line, such as a user's controller reloaded under
// `run --watch`: the line splits "before my fix" from "after my fix" on every chart at once.
import { createContext, useContext } from 'react';
import type { ModuleReload, ModuleView } from '../../shared/protocol/view';

export interface TimelineMarker {
  t: number;
  label: string;
  /** 'err' for a reload that failed: a red line, never the same mark as a good one. */
  tone?: 'err';
}

export const TimelineMarkersContext = createContext<readonly TimelineMarker[]>([]);

export const useTimelineMarkers = (): readonly TimelineMarker[] => useContext(TimelineMarkersContext);

function reloadMarker(file: string, r: ModuleReload): TimelineMarker {
  if (r.outcome === 'failed')
    return {
      t: r.ts,
      tone: 'err',
      label: `${file} reload failed (gen ${r.generation})${r.error ? `: ${r.error}` : ''}`,
    };
  if (r.outcome === 'loaded') return { t: r.ts, label: `${file} reloaded (gen ${r.generation})` };
  return { t: r.ts, label: `${file} reloading (gen ${r.generation})` };
}

/** A marker at each module reload, in time order. */
export function moduleReloadMarkers(modules: readonly ModuleView[]): TimelineMarker[] {
  const base = (file: string) => file.split('/').pop() ?? file;
  return modules.flatMap((m) => m.reloads.map((r) => reloadMarker(base(m.file), r))).sort((a, b) => a.t - b.t);
}
