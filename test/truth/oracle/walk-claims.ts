// Learn's "Follow one object": each walk the view's log gives (shared/protocol/object-walk.ts, what the panel
// tells) must be one object's change. Every step about the object names the object and version the cause
// names, and the watch event it starts from is the one the API server delivered for that version, of the
// same type (a delete walked as a MODIFIED is false), as the oracle's own watch of the server saw it.
import { splitLaneName } from '../../../shared/protocol/lanes';
import { walkReconcile, type WalkStepKind } from '../../../shared/protocol/object-walk';
import type { RuntimeView } from '../../../shared/protocol/view';
import type { FalseClaim } from './claims';
import type { Truth } from './truth';

const ABOUT_THE_OBJECT: ReadonlySet<WalkStepKind> = new Set(['watch', 'delta', 'cache', 'notify', 'handler']);

/** Checks every walk of the oracle controller's reconciles still in the log; returns how many were checked. */
export function checkWalks(view: RuntimeView, truth: Truth, out: FalseClaim[]): number {
  let walks = 0;
  view.log.forEach((e, i) => {
    if (e.kind !== 'reconcile.end' || splitLaneName(e.controller).name !== truth.controller) return;
    if (!truth.namespaces.has(e.key.slice(0, e.key.indexOf('/')))) return;
    const walk = walkReconcile(view.log, i);
    const src = walk.cause?.source;
    if (!src?.uid || !src.resourceVersion) return;
    walks++;
    const where = `Learn's walk of ${e.controller} ${e.key} (reconcile ended at seq ${e.seq})`;
    for (const s of walk.steps) {
      const ev = s.event;
      if (!ABOUT_THE_OBJECT.has(s.step) || !('ref' in ev)) continue;
      if (ev.ref.uid !== src.uid || ev.ref.resourceVersion !== src.resourceVersion)
        out.push({
          claim: `its ${s.step} step is ${ev.ref.gvk} ${ev.ref.name} at rv ${ev.ref.resourceVersion}`,
          truth: `the reconcile's cause is ${src.gvk} ${src.name} at rv ${src.resourceVersion}`,
          where,
        });
      if (ev.kind !== 'reflector.event') continue;
      const delivered = truth.server.delivered(src.uid, src.resourceVersion);
      if (delivered && delivered.type !== ev.type)
        out.push({
          claim: `the watch delivered ${ev.type} at rv ${src.resourceVersion}`,
          truth: `the API server delivered ${delivered.type} at that version`,
          where,
        });
    }
  });
  return walks;
}
