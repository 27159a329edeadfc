// The Website operator, for `controller-scope run examples/crd-operator/controller.ts`: the manager it is
// given runs the controller (and the dashboard shows it). In your own project, call the same setup from your
// main() on a manager you made with newManager(getConfigOrDie()).
import type { Manager } from 'controller-scope';
import { createSample } from './sample';
import { setupWebsiteController } from './setup';

export default async function setup(mgr: Manager): Promise<void> {
  await setupWebsiteController(mgr);
  await createSample(mgr);
}
