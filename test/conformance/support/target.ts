// What one server under test offers the conformance suite: a kubeconfig, our own client stack built from
// it, and the one hook the wire protocol cannot express (compaction). Both targets fill this in the same
// way, so every expectation in ../cases is shared word for word.
import type { HttpClient, RestClient, RestConfig } from '../../../server/runtime/client';

export type TargetName = 'sandbox' | 'envtest';

export interface ConformanceTarget {
  name: TargetName;
  /** The kubeconfig file the client was loaded from (getConfig({ kubeconfig })). */
  kubeconfigPath: string;
  config: RestConfig;
  http: HttpClient;
  client: RestClient;
  /**
   * Compacts the server's history at its current revision and returns that revision: afterwards an exact
   * list or a continue token at an older resourceVersion answers 410. Sandbox: its compaction hook; envtest:
   * etcd's own compaction API, which kube-apiserver otherwise calls only every 5 minutes.
   */
  compact(): Promise<string>;
}

/** Read lazily: targets are started in beforeAll, after the suite has been declared. */
export type GetTarget = () => ConformanceTarget;
