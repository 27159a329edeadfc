// Wires the Website controller into a manager, the way a kubebuilder project's SetupWithManager does:
// install the CRD, index Websites by the ConfigMap they read, then For(Website), Owns(ConfigMap, Deployment,
// Service) and Watches(ConfigMap) mapped through that index, so editing a page ConfigMap re-renders every
// site that uses it.
import {
  enqueueRequestsFromMapFunc,
  newControllerManagedBy,
  type Client,
  type Manager,
  type Reconciler,
} from 'controller-scope';
import { installCRD } from './install-crd';
import {
  CONTENT_CONFIGMAP_INDEX,
  ConfigMap,
  Deployment,
  Service,
  Website,
  websiteCRD,
  type WebsiteObject,
} from './website';
import { WebsiteReconciler } from './website-reconciler';

export interface WebsiteControllerOptions {
  /** Controller name on the dashboard and in metrics. Default "website". */
  name?: string;
  /** Builds the reconciler; default the correct WebsiteReconciler. */
  newReconciler?: (client: Client) => Reconciler;
}

export async function setupWebsiteController(mgr: Manager, opts: WebsiteControllerOptions = {}): Promise<void> {
  await installCRD(mgr, websiteCRD);

  await mgr.getFieldIndexer().indexField(Website, CONTENT_CONFIGMAP_INDEX, (obj) => {
    const name = (obj as WebsiteObject).spec?.contentFrom?.configMapName;
    return name ? [name] : [];
  });

  const client = mgr.getClient();
  const sitesUsingConfigMap = enqueueRequestsFromMapFunc(async (_ctx, cm) => {
    const sites = await client.list<WebsiteObject>(Website, {
      namespace: cm.metadata.namespace,
      fieldSelector: `${CONTENT_CONFIGMAP_INDEX}=${cm.metadata.name ?? ''}`,
    });
    return sites.items.map((s) => ({ namespace: s.metadata.namespace ?? '', name: s.metadata.name ?? '' }));
  });

  await newControllerManagedBy(mgr)
    .named(opts.name ?? 'website')
    .for(Website)
    .owns(ConfigMap)
    .owns(Deployment)
    .owns(Service)
    .watches(ConfigMap, sitesUsingConfigMap)
    .complete(opts.newReconciler?.(client) ?? new WebsiteReconciler(client));
}
