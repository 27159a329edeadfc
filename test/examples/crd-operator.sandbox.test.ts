// The crd-operator example against the embedded sandbox (with its Deployment controllers and simulated
// nodes, so sites become Available): support/crd-operator-suite.ts.
import { afterAll, beforeAll, describe } from 'vitest';
import { startCluster, type RunningCluster } from '../../server/cluster/connect';
import { defineCrdOperatorSuite } from './support/crd-operator-suite';

describe('crd-operator example on the sandbox', () => {
  let cluster: RunningCluster | undefined;
  beforeAll(async () => {
    cluster = await startCluster({ mode: 'sandbox', workload: { paused: true } });
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  defineCrdOperatorSuite(() => ({ cluster: cluster as RunningCluster, deploymentsBecomeAvailable: true }));
});
