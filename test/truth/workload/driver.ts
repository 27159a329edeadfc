// Runs a plan's cluster steps as "another client" would: @kubernetes/client-node, with kubectl's field
// manager for patches. Every write it makes is logged with the version the server answered, so the oracle
// knows who wrote each version it did not see the controller write.
import { KubeConfig, KubernetesObjectApi, PatchStrategy, type KubernetesObject } from '@kubernetes/client-node';
import { BEHAVIOUR } from '../oracle/behaviour';
import type { Step } from './plan';
import type { ServerObjects } from '../harness/quiet';

export interface ExternalWrite {
  actor: 'workload' | 'kubectl';
  verb: 'create' | 'update' | 'patch' | 'delete';
  kind: 'ConfigMap' | 'Secret';
  namespace: string;
  name: string;
  uid: string;
  resourceVersion: string;
  ts: number;
}

interface Obj extends KubernetesObject {
  data?: Record<string, string>;
}

export class WorkloadDriver {
  readonly writes: ExternalWrite[] = [];
  private readonly api: KubernetesObjectApi;

  constructor(
    kubeconfigFile: string,
    readonly namespace: string,
    private readonly seed: number,
  ) {
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfigFile);
    this.api = KubernetesObjectApi.makeApiClient(kc);
  }

  async createNamespace(): Promise<void> {
    await this.api.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: this.namespace } });
  }

  /**
   * Deletes what the seed left (its ConfigMaps and Secrets), once it has been checked: every later restart
   * lists and reconciles all objects again, so a run that kept every seed's objects would make each seed
   * wait behind all earlier ones (a seed's quiet then timed out on a backlog, not on a wrong view).
   */
  async clear(): Promise<void> {
    for (const kind of ['ConfigMap', 'Secret'] as const) {
      const list = await this.api.list('v1', kind, this.namespace);
      for (const o of list.items) {
        await this.api
          .delete({ apiVersion: 'v1', kind, metadata: { namespace: this.namespace, name: o.metadata?.name ?? '' } })
          .catch((err: unknown) => {
            if ((err as { code?: number }).code !== 404) throw err;
          });
      }
    }
  }

  /** The run's ConfigMaps and Secrets as the server holds them now: key → resourceVersion. */
  async objects(): Promise<ServerObjects> {
    const versions = async (kind: string): Promise<Map<string, string>> => {
      const list = await this.api.list('v1', kind, this.namespace);
      return new Map(
        list.items.map((o) => [`${this.namespace}/${o.metadata?.name ?? ''}`, o.metadata?.resourceVersion ?? '']),
      );
    };
    return { configMaps: await versions('ConfigMap'), secrets: await versions('Secret') };
  }

  /** How many ConfigMaps and Secrets the whole cluster holds: what an unrestricted cache must hold. */
  async clusterCounts(): Promise<{ configMaps: number; secrets: number }> {
    const count = async (kind: string): Promise<number> => (await this.api.list('v1', kind)).items.length;
    return { configMaps: await count('ConfigMap'), secrets: await count('Secret') };
  }

  /** One cluster step; conflicts and not-founds are what a real client meets too, and are skipped. */
  async run(step: Step): Promise<void> {
    try {
      await this.apply(step);
    } catch (err) {
      const code = (err as { code?: number }).code;
      if (code === 404 || code === 409) return;
      throw err;
    }
  }

  private async apply(step: Step): Promise<void> {
    switch (step.op) {
      case 'create':
        return this.create(step);
      case 'update': {
        const cm = await this.read('ConfigMap', step.name);
        return this.log('workload', 'update', await this.api.replace({ ...cm, data: step.data }));
      }
      case 'patch': {
        const spec = { ...this.ref('ConfigMap', step.name), data: step.data };
        const out = await this.api.patch(
          spec,
          undefined,
          undefined,
          'kubectl-patch',
          undefined,
          PatchStrategy.MergePatch,
        );
        return this.log('kubectl', 'patch', out);
      }
      case 'delete':
        return this.remove('ConfigMap', step.name);
      case 'patchSecret': {
        const spec = {
          ...this.ref('Secret', `${step.name}-mirror`),
          data: { drift: Buffer.from('x').toString('base64') },
        };
        const out = await this.api.patch(
          spec,
          undefined,
          undefined,
          'kubectl-patch',
          undefined,
          PatchStrategy.MergePatch,
        );
        return this.log('kubectl', 'patch', out);
      }
      case 'deleteSecret':
        return this.remove('Secret', `${step.name}-mirror`);
      default:
        return;
    }
  }

  private async create(step: Extract<Step, { op: 'create' }>): Promise<void> {
    const annotations: Record<string, string> = {};
    if (step.fail) annotations[BEHAVIOUR.failAnnotation] = String(step.fail);
    if (step.requeueAfterMs) annotations[BEHAVIOUR.requeueAnnotation] = String(step.requeueAfterMs);
    const labels: Record<string, string> = { [BEHAVIOUR.seedLabel]: String(this.seed) };
    if (step.loop) labels[BEHAVIOUR.loopLabel] = 'true';
    const body: Obj = { ...this.ref('ConfigMap', step.name), data: step.data };
    body.metadata = { ...body.metadata, labels, annotations };
    this.log('workload', 'create', await this.api.create(body));
  }

  private async remove(kind: 'ConfigMap' | 'Secret', name: string): Promise<void> {
    const before = await this.read(kind, name);
    await this.api.delete(this.ref(kind, name));
    // A delete's own version is not returned; the oracle knows the object by its uid.
    this.writes.push({
      actor: 'workload',
      verb: 'delete',
      kind,
      namespace: this.namespace,
      name,
      uid: before.metadata?.uid ?? '',
      resourceVersion: '',
      ts: Date.now(),
    });
  }

  private ref(kind: 'ConfigMap' | 'Secret', name: string): Obj {
    return { apiVersion: 'v1', kind, metadata: { name, namespace: this.namespace } };
  }

  private read(kind: 'ConfigMap' | 'Secret', name: string): Promise<Obj> {
    return this.api.read(this.ref(kind, name) as KubernetesObject & { metadata: { name: string; namespace: string } });
  }

  private log(actor: ExternalWrite['actor'], verb: ExternalWrite['verb'], out: KubernetesObject): void {
    this.writes.push({
      actor,
      verb,
      kind: out.kind as 'ConfigMap' | 'Secret',
      namespace: out.metadata?.namespace ?? this.namespace,
      name: out.metadata?.name ?? '',
      uid: out.metadata?.uid ?? '',
      resourceVersion: out.metadata?.resourceVersion ?? '',
      ts: Date.now(),
    });
  }
}
