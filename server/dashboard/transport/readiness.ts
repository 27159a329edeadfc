// What /readyz says about the manager, from the view the runtime's own events built: ready once the manager
// has started, every controller is running and every started informer has synced. A cache-sync timeout, a
// stopped controller or a manager error make it not ready, with the reason.
import type { RuntimeView } from '../../../shared/protocol/view';

export function managerNotReady(view: RuntimeView): string | undefined {
  const m = view.manager;
  if (!m) return 'the manager has not started yet';
  if (m.phase === 'error' || m.phase === 'stopped' || m.phase === 'stopping') {
    return `the manager is ${m.phase}${m.error ? `: ${m.error}` : ''}`;
  }
  const reasons: string[] = [];
  if (m.phase !== 'started') reasons.push(`the manager is ${m.phase}`);
  for (const c of Object.values(view.controllers)) {
    // "unknown": no lifecycle event seen (the events began after it started), nothing to judge it by.
    if (c.phase === 'started' || c.phase === 'unknown') continue;
    const why = c.phase === 'cacheSyncTimeout' ? 'timed out waiting for its caches to sync' : `is ${c.phase}`;
    reasons.push(`controller ${c.name} ${why}${c.lastError ? `: ${c.lastError}` : ''}`);
  }
  for (const i of Object.values(view.informers)) {
    if (i.started && !i.synced) reasons.push(`informer ${i.id} has not synced`);
  }
  return reasons.length > 0 ? reasons.slice(0, 5).join('; ') : undefined;
}
