// Workload sizes. The Go peers (bench/go/main.go fullShape/quickShape) use the same numbers; change both.

export interface Shape {
  /** workqueue: distinct keys, rounds, and how many times each key is added per round (dup-1 absorbed). */
  queueKeys: number;
  queueRounds: number;
  queueDup: number;
  /** rate-limited queue: keys × rounds addRateLimited+forget pairs. */
  rlKeys: number;
  rlRounds: number;
  /** informer: pods listed, then MODIFIED events watched. */
  pods: number;
  updates: number;
  /** sandbox: configmaps created, then updates to them (the watch replays creates + updates). */
  configMaps: number;
  configMapUpdates: number;
  /** Measured repetitions (after one warm-up). */
  reps: number;
  /**
   * Probe-cost matrix (ours only): smaller shapes and fewer repetitions, because the Recorder variant is
   * slower by an order of magnitude and the whole bench must stay within ~3 minutes on 2 cores.
   */
  probeQueueRounds: number;
  probePods: number;
  probeUpdates: number;
  probeReps: number;
}

export const FULL: Shape = {
  queueKeys: 1000,
  queueRounds: 50,
  queueDup: 10,
  rlKeys: 1000,
  rlRounds: 100,
  pods: 10_000,
  updates: 50_000,
  configMaps: 5_000,
  configMapUpdates: 15_000,
  reps: 5,
  probeQueueRounds: 5,
  probePods: 5_000,
  probeUpdates: 25_000,
  probeReps: 3,
};

export const QUICK: Shape = {
  queueKeys: 1000,
  queueRounds: 5,
  queueDup: 10,
  rlKeys: 1000,
  rlRounds: 10,
  pods: 1_000,
  updates: 5_000,
  configMaps: 1_000,
  configMapUpdates: 1_000,
  reps: 1,
  probeQueueRounds: 2,
  probePods: 1_000,
  probeUpdates: 5_000,
  probeReps: 1,
};
