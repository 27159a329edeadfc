// Ports client-go tools/leaderelection/resourcelock/interface.go: the record a lock stores and the lock
// contract the elector drives.

/** resourcelock.LeaderElectionRecord. Times are epoch milliseconds. */
export interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: number;
  renewTime: number;
  leaderTransitions: number;
}

/** resourcelock.Interface */
export interface ResourceLock {
  /** The current record and its raw form (compared to notice changes); rejects with ApiError (404 when absent). */
  get(signal?: AbortSignal): Promise<{ record: LeaderElectionRecord; raw: string }>;
  create(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void>;
  update(record: LeaderElectionRecord, signal?: AbortSignal): Promise<void>;
  identity(): string;
  /** "namespace/name" */
  describe(): string;
}
