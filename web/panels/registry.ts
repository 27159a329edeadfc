// The one list of panels: id (the URL's path), label, pipeline step and navigation group, in navigation
// order. The router validates ids against it, the sidebar and the keyboard shortcuts are drawn from it, and
// App's component map is keyed by its ids, so a panel added here and nowhere else fails the type check.
// Data only (no components), so the router can import it without importing every panel.

export const PANEL_GROUPS = [
  { id: 'map', label: 'Map' },
  { id: 'informer', label: 'Informer' },
  { id: 'controller', label: 'Controller' },
  { id: 'tools', label: 'Tools' },
] as const;

export type PanelGroup = (typeof PANEL_GROUPS)[number]['id'];

export interface PanelEntry<Id extends string = string> {
  id: Id;
  label: string;
  /** The block's place in the pipeline, also its keyboard shortcut. */
  step?: string;
  group: PanelGroup;
}

const LIST = [
  { id: 'overview', label: 'Overview', group: 'map' },
  { id: 'reflector', label: 'Reflector', step: '1', group: 'informer' },
  { id: 'delta-fifo', label: 'DeltaFIFO', step: '2', group: 'informer' },
  { id: 'indexer', label: 'Indexer', step: '3', group: 'informer' },
  { id: 'workqueue', label: 'Workqueue', step: '4', group: 'controller' },
  { id: 'controller', label: 'Controller', step: '5', group: 'controller' },
  { id: 'trace', label: 'Trace', step: '6', group: 'controller' },
  { id: 'faults', label: 'Faults & workload', group: 'tools' },
  { id: 'learn', label: 'Learn', group: 'tools' },
] as const satisfies readonly PanelEntry[];

export type PanelId = (typeof LIST)[number]['id'];

export const PANELS: readonly PanelEntry<PanelId>[] = LIST;

export const PANEL_IDS: readonly PanelId[] = PANELS.map((p) => p.id);

export function isPanelId(s: string): s is PanelId {
  return (PANEL_IDS as readonly string[]).includes(s);
}
