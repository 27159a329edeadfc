// When the controller has finished with the workload, decided from ground truth only: every reconcile that
// started has ended, and for every ConfigMap of the run the controller's last pass succeeded having read the
// version the server holds now (and its Secret's), or found it gone. Then nothing is left for it to do until
// the workload writes again, and the view must show exactly that.
import type { TruthReconcile } from '../oracle/truth';

export interface ServerObjects {
  /** key → resourceVersion, for the run's namespace. */
  configMaps: Map<string, string>;
  secrets: Map<string, string>;
}

/** Why the controller is not quiet yet, or undefined when it is. */
export function notQuiet(
  reconciles: readonly TruthReconcile[],
  server: ServerObjects,
  namespace: string,
  secretOf: (cmName: string) => string,
  /** The controller run doing the work now: only its passes count (an older run may still finish one). */
  generation: string | undefined,
): string | undefined {
  const open = new Map<string, number>();
  const last = new Map<string, TruthReconcile>();
  // Several processes' logs, each in its own order: the last pass of a key is the latest by time.
  const ordered = [...reconciles].sort((a, b) => a.ts - b.ts);
  for (const r of ordered) {
    if (!r.key.startsWith(`${namespace}/`)) continue;
    const id = `${r.process}|${r.reconcileId}`;
    // A run that was killed mid-reconcile never logs the end: only the running generation's passes count.
    if (r.phase === 'start' && (generation === undefined || r.generation === generation)) open.set(id, 1);
    else {
      open.delete(id);
      last.set(r.key, r);
    }
  }
  if (open.size > 0) return `${open.size} reconciles still running`;
  for (const [key, rv] of server.configMaps) {
    const end = last.get(key);
    if (!end) return `${key} not reconciled yet`;
    // A restarted controller lists everything again and reconciles each key once more.
    if (generation !== undefined && end.generation !== generation)
      return `${key} not reconciled by the running controller yet`;
    if (end.outcome !== 'success') return `${key}'s last pass ended in ${end.outcome}`;
    if (end.cmRv !== rv) return `${key}'s last pass read rv ${end.cmRv}, the server holds ${rv}`;
    const secret = server.secrets.get(`${namespace}/${secretOf(key.slice(namespace.length + 1))}`);
    if (secret !== undefined && end.secretRv !== secret)
      return `${key}'s last pass left its Secret at rv ${end.secretRv}, the server holds ${secret}`;
  }
  for (const [key, end] of last) {
    if (server.configMaps.has(key)) continue;
    // Deleted while no generation of the controller watched (across a restart), it is never reconciled
    // again, and rightly: the new cache never held it.
    if (generation !== undefined && end.generation !== generation) continue;
    if (end.cmRv !== '' || end.outcome !== 'success') return `${key} was deleted and not reconciled since`;
  }
  return undefined;
}
