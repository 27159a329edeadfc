// Churn for the sandbox, so controllers have something to do: creates, updates and deletes of pods,
// configmaps and deployment scales in the demo namespace, at a rate and in a profile the user picks.
import type { KubeObject } from '../../../../shared/models/object';
import { realClock, type Clock, type TimerHandle } from '../../../runtime';
import type { WorkloadTarget } from './workload-target';

export type ChurnProfile = 'steady' | 'bursty' | 'storm';

/** Every churn profile, for pickers and flags. */
export const CHURN_PROFILES: readonly ChurnProfile[] = ['steady', 'bursty', 'storm'];

export interface WorkloadGeneratorOptions {
  /** Where objects are written: the sandbox's store, or any cluster through a client. */
  target: WorkloadTarget;
  /** Where the churn happens; created when missing. Default "demo". */
  namespace?: string;
  profile?: ChurnProfile;
  /** Operations per second (the profile shapes them); default 2. */
  rate?: number;
  /** Start paused; default false. */
  paused?: boolean;
  clock?: Clock;
  random?: () => number;
}

export interface WorkloadStatus {
  profile: ChurnProfile;
  rate: number;
  paused: boolean;
  namespace: string;
  operations: number;
  errors: number;
}

const CM = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
const POD = { apiVersion: 'v1', kind: 'Pod' } as const;
const DEPLOY = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;
const CHURN_LABEL = 'controller-scope.dev/churn';

/** A burst lasts this long every BURST_PERIOD in the bursty profile. */
const BURST_PERIOD_MS = 5_000;
const MAX_RATE = 500;

export class WorkloadGenerator {
  private readonly store: WorkloadTarget;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly namespace: string;
  private profile: ChurnProfile;
  private rate: number;
  private paused: boolean;
  private timer?: TimerHandle;
  private running = false;
  private operations = 0;
  private errors = 0;
  private seq = 0;

  constructor(opts: WorkloadGeneratorOptions) {
    this.store = opts.target;
    this.clock = opts.clock ?? realClock;
    this.random = opts.random ?? Math.random;
    this.namespace = opts.namespace ?? 'demo';
    this.profile = opts.profile ?? 'steady';
    this.rate = validRate(opts.rate ?? 2);
    this.paused = opts.paused ?? false;
  }

  /** Seeds the demo namespace with a few deployments, configmaps and a secret, then starts the churn. */
  async start(): Promise<void> {
    await this.seed();
    this.running = true;
    this.schedule();
  }

  stop(): void {
    this.running = false;
    this.timer?.cancel();
  }

  status(): WorkloadStatus {
    return {
      profile: this.profile,
      rate: this.rate,
      paused: this.paused,
      namespace: this.namespace,
      operations: this.operations,
      errors: this.errors,
    };
  }

  configure(change: { profile?: ChurnProfile; rate?: number; paused?: boolean }): WorkloadStatus {
    if (change.profile !== undefined) this.profile = change.profile;
    if (change.rate !== undefined) this.rate = validRate(change.rate);
    if (change.paused !== undefined) this.paused = change.paused;
    if (this.running) {
      this.timer?.cancel();
      this.schedule();
    }
    return this.status();
  }

  /** Runs one operation now (used by tests and by the schedule). */
  async step(): Promise<void> {
    const r = this.random();
    try {
      if (r < 0.35) await this.updateConfigMap();
      else if (r < 0.55) await this.createPod();
      else if (r < 0.7) await this.deletePod();
      else if (r < 0.85) await this.scaleDeployment();
      else await this.recycleConfigMap();
      this.operations++;
    } catch {
      // Conflicts and races with the controllers are part of life in a cluster; count them and go on.
      this.errors++;
    }
  }

  private schedule(): void {
    if (!this.running) return;
    const { delayMs, batch } = this.nextTick();
    this.timer = this.clock.setTimer(() => {
      void (async () => {
        // Operations run one after another; a slow API server stretches the tick rather than piling up.
        if (!this.paused) for (let i = 0; i < batch && this.running; i++) await this.step();
        this.schedule();
      })();
    }, delayMs);
  }

  /** How long until the next tick and how many operations it runs, by profile. */
  private nextTick(): { delayMs: number; batch: number } {
    if (this.paused || this.rate === 0) return { delayMs: 1000, batch: 0 };
    switch (this.profile) {
      case 'steady':
        return this.rate <= 20
          ? { delayMs: 1000 / this.rate, batch: 1 }
          : { delayMs: 50, batch: Math.ceil(this.rate / 20) };
      case 'bursty': {
        // All of a period's operations land in the first 200 ms of it.
        const inBurst = this.clock.now() % BURST_PERIOD_MS < 200;
        return inBurst
          ? { delayMs: 20, batch: Math.max(1, Math.round((this.rate * BURST_PERIOD_MS) / 1000 / 10)) }
          : { delayMs: BURST_PERIOD_MS - (this.clock.now() % BURST_PERIOD_MS), batch: 0 };
      }
      case 'storm':
        return { delayMs: 50, batch: Math.max(1, Math.ceil((this.rate * 10) / 20)) };
    }
  }

  private async seed(): Promise<void> {
    const ns = this.namespace;
    if (!(await this.store.get({ apiVersion: 'v1', kind: 'Namespace' }, ns))) {
      await this.store.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    }
    for (const [name, replicas] of [
      ['web', 3],
      ['api', 2],
    ] as const) {
      if (!(await this.store.get(DEPLOY, name, ns))) await this.store.create(deployment(name, ns, replicas));
    }
    for (let i = 0; i < 5; i++) {
      const name = `settings-${i}`;
      if (!(await this.store.get(CM, name, ns))) {
        await this.store.create({
          ...CM,
          metadata: { name, namespace: ns, labels: { [CHURN_LABEL]: 'true' } },
          data: { v: '0' },
        });
      }
    }
    if (!(await this.store.get({ apiVersion: 'v1', kind: 'Secret' }, 'db-credentials', ns))) {
      await this.store.create({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'db-credentials', namespace: ns },
        type: 'Opaque',
        stringData: { username: 'app', password: 'sandbox-only-not-a-real-secret' },
      });
    }
  }

  private pick<T>(items: T[]): T | undefined {
    return items.length ? items[Math.floor(this.random() * items.length)] : undefined;
  }

  private churnObjects(ref: typeof CM | typeof POD): Promise<KubeObject[]> {
    return this.store.list(ref, { namespace: this.namespace, labelSelector: CHURN_LABEL });
  }

  private async updateConfigMap(): Promise<void> {
    const cm = this.pick(await this.churnObjects(CM));
    if (!cm) return this.recycleConfigMap();
    const v = Number((cm.data as Record<string, string> | undefined)?.v ?? 0) + 1;
    await this.store.patch(CM, cm.metadata.name ?? '', this.namespace, { data: { v: String(v) } });
  }

  private async recycleConfigMap(): Promise<void> {
    const cms = await this.churnObjects(CM);
    if (cms.length > 12) {
      const victim = this.pick(cms);
      if (victim) await this.store.delete(CM, victim.metadata.name ?? '', this.namespace);
      return;
    }
    await this.store.create({
      ...CM,
      metadata: { generateName: 'churn-', namespace: this.namespace, labels: { [CHURN_LABEL]: 'true' } },
      data: { v: '0' },
    });
  }

  private async createPod(): Promise<void> {
    if ((await this.churnObjects(POD)).length >= 25) return this.deletePod();
    await this.store.create({
      ...POD,
      metadata: {
        name: `job-${(this.seq++).toString(36)}-${Math.floor(this.random() * 1e6).toString(36)}`,
        namespace: this.namespace,
        labels: { [CHURN_LABEL]: 'true', app: 'batch' },
      },
      spec: { containers: [{ name: 'main', image: 'busybox:1.36' }], terminationGracePeriodSeconds: 1 },
    });
  }

  private async deletePod(): Promise<void> {
    const pod = this.pick((await this.churnObjects(POD)).filter((p) => !p.metadata.deletionTimestamp));
    if (pod) await this.store.delete(POD, pod.metadata.name ?? '', this.namespace);
  }

  private async scaleDeployment(): Promise<void> {
    const d = this.pick(await this.store.list(DEPLOY, { namespace: this.namespace }));
    if (!d) return;
    const current = ((d.spec as { replicas?: number } | undefined)?.replicas ?? 1) | 0;
    const next = Math.max(1, Math.min(6, current + (this.random() < 0.5 ? -1 : 1)));
    await this.store.patch(DEPLOY, d.metadata.name ?? '', this.namespace, { spec: { replicas: next } });
  }
}

function validRate(rate: number): number {
  if (!Number.isFinite(rate) || rate < 0 || rate > MAX_RATE) {
    throw new RangeError(`workload rate must be between 0 and ${MAX_RATE} operations per second, got ${rate}`);
  }
  return rate;
}

export function deployment(name: string, namespace: string, replicas: number): KubeObject {
  const labels = { app: name };
  return {
    ...DEPLOY,
    metadata: { name, namespace, labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: { containers: [{ name, image: `registry.example/${name}:1.0` }], terminationGracePeriodSeconds: 1 },
      },
    },
  };
}
