// Moments every time-series chart marks with a vertical line, such as a user's controller reloaded under
// `run --watch`: the line splits "before my fix" from "after my fix" on every chart at once.
import { createContext, useContext } from 'react';
import type { ModuleView } from '../../shared/protocol/view';

export interface TimelineMarker {
  t: number;
  label: string;
}

export const TimelineMarkersContext = createContext<readonly TimelineMarker[]>([]);

export const useTimelineMarkers = (): readonly TimelineMarker[] => useContext(TimelineMarkersContext);

/** A marker at each module reload, in time order. */
export function moduleReloadMarkers(modules: readonly ModuleView[]): TimelineMarker[] {
  const base = (file: string) => file.split('/').pop() ?? file;
  return modules
    .flatMap((m) => m.reloads.map((r) => ({ t: r.ts, label: `${base(m.file)} reloaded (gen ${r.generation})` })))
    .sort((a, b) => a.t - b.t);
}
