// The view of a user's controller modules under `controller-scope run` (see reduce-module.ts).
import type { ModuleError } from './events-controller';

/** A user's controller module under `controller-scope run`, newest state first-class, history in notable. */
export interface ModuleView {
  file: string;
  phase: 'loading' | 'loaded' | 'failed' | 'stopped';
  generation: number;
  since: number;
  /** seq of the event that put it in this phase: a marker for "before / after my fix". */
  seq: number;
  controllers: string[];
  error?: ModuleError;
  /** The generation running now, if any: after a failed reload the previous one keeps running. */
  running?: number;
  /** Where each reload (generation > 1) began, oldest first: the "before / after my fix" markers. */
  reloads: ModuleReload[];
}

export interface ModuleReload {
  seq: number;
  ts: number;
  generation: number;
  /**
   * How the reload ended: 'loaded' (the new generation runs), 'failed' (it never ran; the previous one, if
   * any, keeps running). Absent while it is still loading.
   */
  outcome?: 'loaded' | 'failed';
  /** For 'failed': the error, in one line. */
  error?: string;
}
