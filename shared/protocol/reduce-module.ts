// A user's controller modules under `controller-scope run`: each module's newest phase, the generation that
// runs, and where each reload began (the "before / after my fix" markers), from module.lifecycle events.
import type { ModuleLifecycleEvent } from './events-controller';
import type { Draft } from './reduce-draft';
import { notable } from './reduce-notable';
import type { ModuleReload, ModuleView } from './view';

/** The reload of ev's generation, marked with how it ended once its loaded or failed event arrives. */
function settleReload(reloads: readonly ModuleReload[], ev: ModuleLifecycleEvent): ModuleReload[] {
  const outcome = ev.phase === 'loaded' || ev.phase === 'failed' ? ev.phase : undefined;
  if (outcome === undefined) return reloads as ModuleReload[];
  return reloads.map((r): ModuleReload =>
    r.generation !== ev.generation || r.outcome !== undefined
      ? r
      : {
          ...r,
          outcome,
          ...(ev.phase === 'failed' && ev.error ? { error: ev.error.message.slice(0, 200) } : {}),
        },
  );
}

export function moduleLifecycle(d: Draft, ev: ModuleLifecycleEvent & { seq: number; ts: number }): void {
  const modules = [...d.view.modules];
  const i = modules.findIndex((m) => m.file === ev.file);
  const prev = i >= 0 ? modules[i] : undefined;
  const reloading = ev.phase === 'loading' && ev.generation > 1 && prev?.generation !== ev.generation;
  const reloads = settleReload(prev?.reloads ?? [], ev);
  let running = prev?.running;
  if (ev.phase === 'loaded') running = ev.generation;
  else if (ev.phase === 'stopped' && running === ev.generation) running = undefined;
  // A stop closes the generation that ran; the module's newest state (loading, failed) stays on show.
  const shown = ev.phase === 'stopped' && prev && prev.generation > ev.generation ? prev : undefined;
  const next: ModuleView = shown
    ? { ...shown, ...(running !== undefined ? { running } : {}) }
    : {
        file: ev.file,
        phase: ev.phase,
        generation: ev.generation,
        since: ev.ts,
        seq: ev.seq,
        controllers: ev.controllers ?? (ev.phase === 'failed' ? [] : (prev?.controllers ?? [])),
        reloads: reloading ? [...reloads, { seq: ev.seq, ts: ev.ts, generation: ev.generation }] : reloads,
        ...(running !== undefined ? { running } : {}),
        ...(ev.error ? { error: ev.error } : {}),
      };
  if (shown && running === undefined) delete next.running;
  if (i >= 0) modules[i] = next;
  else modules.push(next);
  d.view.modules = modules;
  if (ev.phase === 'failed' && ev.error) {
    const at = ev.error.at ? ` (${ev.error.at.file}:${ev.error.at.line})` : '';
    notable(d, ev, 'error', `${ev.file}: ${ev.error.message}${at}`);
  } else if (reloading) {
    notable(d, ev, 'info', `${ev.file}: reloading after a change (generation ${ev.generation})`);
  } else if (ev.phase === 'loaded') {
    const names = next.controllers.join(', ') || 'no controllers';
    notable(d, ev, 'info', `${ev.file}: loaded (${names})`);
  }
}
