// The same Website operator with one classic bug: it stamps status.lastReconcileTime on every pass. That
// makes every status write a real change, every change is a watch event on the Website, and every event is
// a new reconcile, which stamps again: a hot loop with nothing to do. The dashboard flags it and shows, for
// each reconcile, the controller's own status write that caused it. controller.ts is the fix.
import type { Manager } from 'controller-scope';
import { createSample } from './sample';
import { setupWebsiteController } from './setup';
import { WebsiteReconciler, type Observed } from './website-reconciler';
import type { WebsiteObject, WebsiteStatus } from './website';

class StampingWebsiteReconciler extends WebsiteReconciler {
  protected override desiredStatus(site: WebsiteObject, seen: Observed): WebsiteStatus {
    return { ...super.desiredStatus(site, seen), lastReconcileTime: new Date().toISOString() }; // the bug
  }
}

export default async function setup(mgr: Manager): Promise<void> {
  await setupWebsiteController(mgr, { name: 'website-buggy', newReconciler: (c) => new StampingWebsiteReconciler(c) });
  await createSample(mgr);
}
