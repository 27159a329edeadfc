// `controller-scope run examples/crd-operator/…` on the embedded sandbox (with its Deployment controllers and
// simulated nodes, so sites become Available): support/crd-operator-suite.ts.
import { describe } from 'vitest';
import { defineCrdOperatorSuite } from './support/crd-operator-suite';

describe('crd-operator example on the sandbox', () => {
  defineCrdOperatorSuite(() => ({ clusterArgs: [], deploymentsBecomeAvailable: true }));
});
