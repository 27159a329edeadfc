// The Website reconciler: finalizer first, then the page, the ConfigMap, Deployment and Service it owns, the
// site's entry in its namespace's directory, and a status that is written only when it changed. It asks to
// run again every CHECK_EVERY_MS so a hand-edited directory is put right even when no event arrives.
import { isDeepStrictEqual } from 'node:util';
import {
  addFinalizer,
  containsFinalizer,
  createOrUpdate,
  isAlreadyExists,
  isConflict,
  isNotFound,
  mergeFrom,
  removeFinalizer,
  setStatusCondition,
  type Client,
  type KubeObject,
  type ReconcileContext,
  type Reconciler,
  type Request,
  type Result,
} from 'controller-scope';
import {
  CONDITION_AVAILABLE,
  CONDITION_CONTENT_READY,
  ConfigMap,
  Deployment,
  DIRECTORY_CONFIGMAP,
  FINALIZER,
  Service,
  Website,
  type WebsiteObject,
  type WebsiteStatus,
} from './website';
import {
  contentConfigMapName,
  defaultPage,
  mutateContentConfigMap,
  mutateDeployment,
  mutateService,
} from './owned-objects';

export const CHECK_EVERY_MS = 30_000;

/** What one pass found in the cluster, from which the status follows. */
export interface Observed {
  /** Why the page could not be read, when it could not. */
  contentProblem?: string;
  availableReplicas: number;
}

export class WebsiteReconciler implements Reconciler {
  constructor(readonly client: Client) {}

  async reconcile(ctx: ReconcileContext, req: Request): Promise<Result> {
    let site: WebsiteObject;
    try {
      site = await this.client.get<WebsiteObject>(Website, req, { signal: ctx.signal });
    } catch (err) {
      if (isNotFound(err)) return {}; // gone; what it owned goes with it through the garbage collector
      throw err;
    }

    if (site.metadata.deletionTimestamp) {
      if (containsFinalizer(site, FINALIZER)) {
        await this.setDirectoryEntry(site, null);
        const before = structuredClone(site);
        removeFinalizer(site, FINALIZER);
        await this.client.patch(site, mergeFrom(before, { optimisticLock: true }));
        ctx.log.info('removed from the directory', { website: req.name });
      }
      return {};
    }
    if (!containsFinalizer(site, FINALIZER)) {
      const before = structuredClone(site);
      addFinalizer(site, FINALIZER);
      site = await this.client.patch(site, mergeFrom(before, { optimisticLock: true }));
    }

    const { page, problem } = await this.readPage(site);
    let deployment: KubeObject;
    try {
      const ns = site.metadata.namespace ?? '';
      const name = site.metadata.name ?? '';
      const cm: KubeObject = { ...ConfigMap, metadata: { namespace: ns, name: contentConfigMapName(site) } };
      await createOrUpdate(this.client, cm, mutateContentConfigMap(site, page));
      deployment = { ...Deployment, metadata: { namespace: ns, name } };
      await createOrUpdate(this.client, deployment, mutateDeployment(site, page));
      const svc: KubeObject = { ...Service, metadata: { namespace: ns, name } };
      await createOrUpdate(this.client, svc, mutateService(site));
    } catch (err) {
      // The cache was a step behind the server: an object this controller created a moment ago is not in it
      // yet (AlreadyExists), or someone (the Deployment controller writing its status) updated it since
      // (Conflict). Neither is a failure; read again shortly.
      if (isAlreadyExists(err) || isConflict(err)) return { requeue: true };
      throw err;
    }
    await this.setDirectoryEntry(site, siteURL(site));

    const available = (deployment.status as { availableReplicas?: number } | undefined)?.availableReplicas ?? 0;
    const next = this.desiredStatus(site, {
      availableReplicas: available,
      ...(problem ? { contentProblem: problem } : {}),
    });
    if (!isDeepStrictEqual(site.status ?? {}, next)) {
      const before = structuredClone(site);
      site.status = next;
      await this.client.status().patch(site, mergeFrom(before));
    }
    return { requeueAfterMs: CHECK_EVERY_MS };
  }

  /** The status this pass wants, built on the stored one so unchanged conditions keep their times. */
  protected desiredStatus(site: WebsiteObject, seen: Observed): WebsiteStatus {
    const status: WebsiteStatus = structuredClone(site.status ?? {});
    const generation = site.metadata.generation ?? 0;
    const want = site.spec?.replicas ?? 1;
    status.observedGeneration = generation;
    status.availableReplicas = seen.availableReplicas;
    status.url = siteURL(site);
    const conditions = (status.conditions ??= []);
    setStatusCondition(conditions, {
      type: CONDITION_CONTENT_READY,
      observedGeneration: generation,
      ...(seen.contentProblem
        ? { status: 'False', reason: 'ConfigMapNotFound', message: seen.contentProblem }
        : { status: 'True', reason: 'PageRendered', message: 'the page is in the content ConfigMap' }),
    });
    setStatusCondition(conditions, {
      type: CONDITION_AVAILABLE,
      observedGeneration: generation,
      ...(seen.availableReplicas >= want
        ? { status: 'True', reason: 'MinimumReplicasAvailable', message: `${seen.availableReplicas}/${want} available` }
        : { status: 'False', reason: 'ReplicasUnavailable', message: `${seen.availableReplicas}/${want} available` }),
    });
    return status;
  }

  /** The page from the ConfigMap the spec names, or the default page (with the reason) when it is missing. */
  private async readPage(site: WebsiteObject): Promise<{ page: string; problem?: string }> {
    const name = site.spec?.contentFrom?.configMapName;
    if (!name) return { page: defaultPage(site) };
    try {
      const cm = await this.client.get(ConfigMap, { namespace: site.metadata.namespace, name });
      const page = (cm.data as Record<string, string> | undefined)?.['index.html'];
      if (page !== undefined) return { page };
      return { page: defaultPage(site), problem: `ConfigMap ${name} has no index.html key` };
    } catch (err) {
      if (!isNotFound(err)) throw err;
      return { page: defaultPage(site), problem: `ConfigMap ${name} not found` };
    }
  }

  /** Lists (url) or unlists (null) the site in its namespace's directory, writing only when that changes it. */
  private async setDirectoryEntry(site: WebsiteObject, url: string | null): Promise<void> {
    const namespace = site.metadata.namespace ?? '';
    const name = site.metadata.name ?? '';
    let dir: KubeObject;
    try {
      dir = await this.client.get(ConfigMap, { namespace, name: DIRECTORY_CONFIGMAP });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      if (url === null) return;
      const created = { ...ConfigMap, metadata: { namespace, name: DIRECTORY_CONFIGMAP }, data: { [name]: url } };
      await this.client.create(created).catch((e: unknown) => (isAlreadyExists(e) ? undefined : Promise.reject(e)));
      return;
    }
    // A Map, not the data object itself: a site may be called "constructor".
    const entries = new Map(Object.entries((dir.data ?? {}) as Record<string, string>));
    if ((entries.get(name) ?? null) === url) return;
    const before = structuredClone(dir);
    if (url === null) entries.delete(name);
    else entries.set(name, url);
    dir.data = Object.fromEntries(entries);
    await this.client.patch(dir, mergeFrom(before));
  }
}

export function siteURL(site: WebsiteObject): string {
  return `http://${site.metadata.name ?? ''}.${site.metadata.namespace ?? ''}.svc.cluster.local`;
}
