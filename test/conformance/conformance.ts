// The conformance suite: one set of expectations about the Kubernetes API our runtime relies on, declared
// once and run against every target (sandbox.test.ts, envtest.test.ts). All traffic goes through our own
// client layer (getConfig → HttpClient → RestClient / ListWatch / DynamicRESTMapper), so a pass on both
// targets also proves the client.
import { builtinCases } from './cases/builtins';
import { crdCases } from './cases/crd';
import { discoveryCases } from './cases/discovery';
import { errorCases } from './cases/errors';
import { eventCases } from './cases/events';
import { informerCases } from './cases/informer';
import { listCases } from './cases/list';
import { patchDeleteCases } from './cases/patch-delete';
import { resourceCases } from './cases/resources';
import { statusCases } from './cases/status';
import { validationCases } from './cases/validation';
import { watchCases } from './cases/watch';
import { writeCases } from './cases/writes';
import type { GetTarget, TargetName } from './support/target';

export function defineConformance(target: TargetName, getTarget: GetTarget): void {
  discoveryCases(getTarget, target);
  writeCases(getTarget, target);
  statusCases(getTarget, target);
  builtinCases(getTarget, target);
  eventCases(getTarget, target);
  listCases(getTarget, target);
  watchCases(getTarget, target);
  patchDeleteCases(getTarget, target);
  crdCases(getTarget, target);
  informerCases(getTarget, target);
  errorCases(getTarget, target);
  validationCases(getTarget, target);
  resourceCases(getTarget, target);
}
