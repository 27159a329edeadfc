// Installs the example's CustomResourceDefinition from the controller's setup, so the example runs against a
// fresh cluster with nothing applied first: create it (or update it to this definition), wait until the API
// server reports it Established, then until discovery serves the kind (the REST mapper needs that before
// any informer can start). Installing CRDs is usually a deploy step; here it keeps the example one command.
import { isAlreadyExists, isNotFound, type KubeObject, type Manager } from 'controller-scope';

const CRD = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' } as const;

export async function installCRD(mgr: Manager, crd: KubeObject, timeoutMs = 30_000): Promise<void> {
  const client = mgr.getClient();
  const reader = mgr.getAPIReader();
  const name = crd.metadata.name ?? '';
  try {
    const current = await reader.get(CRD, { name });
    await client.update({ ...structuredClone(crd), metadata: { ...current.metadata } });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await client
      .create(structuredClone(crd))
      .catch((e: unknown) => (isAlreadyExists(e) ? undefined : Promise.reject(e)));
  }

  const until = Date.now() + timeoutMs;
  const spec = crd.spec as { group: string; names: { kind: string }; versions: { name: string }[] };
  let last = 'not Established yet';
  while (Date.now() < until) {
    const current = await reader.get(CRD, { name });
    const conds = (current.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions;
    if (conds?.some((c) => c.type === 'Established' && c.status === 'True')) {
      try {
        await mgr
          .getRESTMapper()
          ?.restMapping({ group: spec.group, kind: spec.names.kind }, spec.versions[0]?.name ?? '');
        return;
      } catch (err) {
        last = `Established, but discovery does not serve it yet (${err instanceof Error ? err.message : String(err)})`;
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`CustomResourceDefinition ${name} is ${last} after ${timeoutMs} ms: check the API server's log`);
}
