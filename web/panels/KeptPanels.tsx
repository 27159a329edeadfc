// The panels a user has opened stay mounted when they move on, hidden (React's <Activity>): leaving a panel
// hides it instead of unmounting every chart in one long task, and coming back shows it again instead of
// building its charts anew, with its search, filters and selection as they were left.
// A hidden panel does no work: Activity disconnects its effects (store subscriptions, chart observers,
// timers, refreshes asked of the server) and it keeps the element it was last shown with, so a store update
// renders nothing in it; it draws the current view once shown again, after painting as it was left.
import { Activity, useDeferredValue, useState } from 'react';
import type { ReactNode } from 'react';
import type { PanelId } from '../client/route';
import { PANEL_IDS } from './registry';

function KeptPanel({ shown, children }: { shown: boolean; children: ReactNode }) {
  // The element last shown; while hidden the same element is given again, so React has nothing to render.
  const [kept, setKept] = useState(children);
  if (shown && kept !== children) setKept(children);
  // Shown again, the panel first paints as it was left (no render, only its effects reconnect) and draws the
  // current view in the background, in slices: rendering a panel over a large view in the click's own task
  // was the long task of a switch. Updates while shown already come from a transition and are not delayed.
  const drawn = useDeferredValue(shown ? children : kept);
  return <Activity mode={shown ? 'visible' : 'hidden'}>{drawn}</Activity>;
}

/** Shows `panel` (the element drawing `id`), keeping every panel opened before mounted and hidden. */
export function KeptPanels({ id, panel }: { id: PanelId; panel: ReactNode }) {
  const [opened, setOpened] = useState<ReadonlySet<PanelId>>(() => new Set([id]));
  if (!opened.has(id)) setOpened(new Set(opened).add(id));
  return PANEL_IDS.filter((p) => p === id || opened.has(p)).map((p) => (
    <KeptPanel key={p} shown={p === id}>
      {p === id ? panel : null}
    </KeptPanel>
  ));
}
