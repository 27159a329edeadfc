// What the oracle runs its workloads against: a controller (TypeScript under `run`, or Go replicas with the
// module and `attach`), the dashboard's derived view of it as a browser receives it, and its ground truth.
import type { RuntimeView } from '../../../shared/protocol/view';
import type { ProcessTruth, TruthReconcile, TruthWrite } from '../oracle/truth';

export interface OracleTarget {
  /** e.g. "ts", "go". */
  readonly language: string;
  /** The dashboard's address (for what a viewer downloads, e.g. a recording). */
  readonly dashboardUrl: string;
  /** The view as the dashboard's socket delivers it (the browser's own reducer). */
  view(): RuntimeView;
  /** Everything the controller processes logged so far. */
  records(): { writes: TruthWrite[]; reconciles: TruthReconcile[]; elected: Map<string, number> };
  /** The processes as the harness knows them (attached Go processes); undefined in process. */
  processes(): ProcessTruth[] | undefined;
  /** Reads of caches the dashboard answers (inspect 'cache'), informer id → keys; undefined when not served. */
  cacheKeys(informer: string): Promise<string[] | undefined>;
  /** The controller run that does the work now (the newest TypeScript generation, the Go leader's run). */
  generation(): string | undefined;
  /** Stops the controller's manager (TypeScript: a reload) or process (Go: SIGKILL) and starts it again. */
  restart(): Promise<void>;
  /** With replicas: SIGKILLs the leader, waits for another to be elected, starts the killed one again. */
  failover?(): Promise<void>;
  stop(): Promise<void>;
}
