// Where the workload generator writes: the sandbox's in-process store, or any cluster through a client.
// One small async interface keeps the generator the same for both.
import type { KubeObject } from '../../../../shared/models/object';
import type { Client } from '../../../runtime/client';
import { rawPatch } from '../../../runtime/client';
import { isNotFound } from '../../../runtime';
import type { SandboxStore } from '../store-api';

export interface TypeMeta {
  apiVersion: string;
  kind: string;
}

export interface WorkloadTarget {
  get(type: TypeMeta, name: string, namespace?: string): Promise<KubeObject | undefined>;
  list(type: TypeMeta, opts: { namespace?: string; labelSelector?: string }): Promise<KubeObject[]>;
  create(obj: KubeObject): Promise<void>;
  /** A JSON merge patch. */
  patch(type: TypeMeta, name: string, namespace: string | undefined, body: unknown): Promise<void>;
  delete(type: TypeMeta, name: string, namespace?: string): Promise<void>;
}

export function storeTarget(store: SandboxStore): WorkloadTarget {
  return {
    get: async (type, name, namespace) => store.get(type, name, namespace),
    list: async (type, opts) => store.list(type, opts),
    create: async (obj) => void store.create(obj),
    patch: async (type, name, namespace, body) => void store.patch(type, name, namespace, 'merge', body),
    delete: async (type, name, namespace) => void store.delete(type, name, namespace),
  };
}

/** Writes through a client (a real API server); reads go to the API server too, so they are fresh. */
export function clientTarget(client: Client): WorkloadTarget {
  return {
    async get(type, name, namespace) {
      try {
        return await client.get(type, { name, ...(namespace ? { namespace } : {}) });
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw err;
      }
    },
    list: async (type, opts) => (await client.list(type, opts)).items,
    create: async (obj) => void (await client.create(obj)),
    patch: async (type, name, namespace, body) =>
      void (await client.patch(
        { ...type, metadata: { name, ...(namespace ? { namespace } : {}) } },
        rawPatch('merge', body),
      )),
    delete: async (type, name, namespace) =>
      void (await client.delete({ ...type, metadata: { name, ...(namespace ? { namespace } : {}) } })),
  };
}
