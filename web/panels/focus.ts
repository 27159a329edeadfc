// Which informer / controller / key a panel shows when the route names none (or one that is gone).
import { ratePerSecond } from '../../shared/protocol/reduce-series';
import { failedReconciles } from '../../shared/protocol/reconcile-outcomes';
import { lookup } from '../../shared/protocol/records';
import type { ControllerView, InformerView, KeyView, RuntimeView } from '../../shared/protocol/view';
import type { Route } from '../client/route';

export function sortedInformers(view: RuntimeView): InformerView[] {
  return Object.values(view.informers).sort((a, b) => a.id.localeCompare(b.id));
}

export function sortedControllers(view: RuntimeView): ControllerView[] {
  return Object.values(view.controllers).sort((a, b) => a.name.localeCompare(b.name));
}

/** Informer ids in the order the focus pickers list them. */
export function informerIds(view: RuntimeView): string[] {
  return sortedInformers(view).map((i) => i.id);
}

/** Controller names in the order the focus pickers list them. */
export function controllerNames(view: RuntimeView): string[] {
  return sortedControllers(view).map((c) => c.name);
}

export function focusInformer(view: RuntimeView, route: Route): InformerView | undefined {
  const routed = route.informer !== undefined ? lookup(view.informers, route.informer) : undefined;
  if (routed) return routed;
  // Default to the busiest informer: the one a newcomer most likely wants to look at.
  let best: InformerView | undefined;
  for (const i of sortedInformers(view)) {
    if (!best || i.counters.watchEvents + i.storeSize > best.counters.watchEvents + best.storeSize) best = i;
  }
  return best;
}

/**
 * The routed controller, else a default that suits the panel: 'trouble' picks the one most worth debugging
 * (hot loops, then errors), 'healthy' the calmest (for teaching), 'first' the first by name.
 */
export function focusController(
  view: RuntimeView,
  route: Route,
  prefer: 'first' | 'trouble' | 'healthy' = 'first',
): ControllerView | undefined {
  const routed = route.controller !== undefined ? lookup(view.controllers, route.controller) : undefined;
  if (routed) return routed;
  const all = sortedControllers(view);
  if (prefer === 'first' || all.length < 2) return all[0];
  const trouble = (c: ControllerView) => c.hotLoops.length * 1e9 + failedReconciles(c.reconciles);
  // Stable sorts keep name order among equals, so ties go to the first name either way.
  const ranked = all.slice().sort((a, b) => (prefer === 'trouble' ? trouble(b) - trouble(a) : trouble(a) - trouble(b)));
  return ranked[0];
}

/** The focused key, or the most interesting one: a hot loop, else the most retried, else the busiest. */
export function focusKey(c: ControllerView | undefined, route: Route): KeyView | undefined {
  if (!c) return undefined;
  const routed = route.key !== undefined ? lookup(c.keys, route.key) : undefined;
  if (routed) return routed;
  const hot = c.hotLoops[c.hotLoops.length - 1];
  const hotKey = hot ? lookup(c.keys, hot.key) : undefined;
  if (hotKey) return hotKey;
  let best: KeyView | undefined;
  for (const k of Object.values(c.keys)) {
    if (!best || k.requeues > best.requeues || (k.requeues === best.requeues && k.reconciles > best.reconciles))
      best = k;
  }
  return best;
}

/**
 * Sum of a series field over the window ending now (or at the newest point when now is not given), per
 * second. Ending at now matters: a quiet series has no new points, and a window ending at its last point
 * would show the last busy second's rate for as long as it stays quiet.
 */
export function seriesRate<P extends { t: number }>(
  series: readonly P[],
  field: keyof P,
  windowMs: number,
  now?: number,
): number {
  if (now !== undefined) return ratePerSecond(series, field, now, windowMs);
  const last = series[series.length - 1];
  if (!last) return 0;
  let sum = 0;
  let span = 0;
  const bucket = series.length > 1 ? last.t - (series[series.length - 2] as P).t : 1000;
  for (let i = series.length - 1; i >= 0; i--) {
    const p = series[i] as P;
    if (p.t <= last.t - windowMs) break;
    sum += p[field] as number;
    span += bucket || 1000;
  }
  return span > 0 ? sum / (span / 1000) : 0;
}
