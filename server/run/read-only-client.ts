// A client that reads as usual and refuses every write with a message that says how to allow it. Wraps a
// user's controller under `controller-scope run` against a real cluster without --allow-writes, so a write
// is a clear reconcile error in the dashboard, never a silent change to someone's cluster.
import type { KubeObject } from '../../shared/models/object';
import type { Client, ObjectType, StatusWriter } from '../runtime';

export class ReadOnlyClusterError extends Error {
  override readonly name = 'ReadOnlyClusterError';
}

function describe(obj: KubeObject | ObjectType): string {
  const o = obj as Partial<KubeObject> & { kind?: string };
  const name = o.metadata?.name ? ` ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}` : '';
  return `${o.kind ?? 'object'}${name}`;
}

export function readOnlyClient(inner: Client, clusterName: string): Client {
  const refuse = (verb: string, obj: KubeObject | ObjectType): Promise<never> =>
    Promise.reject(
      new ReadOnlyClusterError(
        `refused to ${verb} ${describe(obj)}: ${clusterName} is read-only; ` +
          'restart controller-scope with --allow-writes to let your controller write to it',
      ),
    );
  const status: StatusWriter = {
    update: (obj) => refuse('update the status of', obj),
    patch: (obj) => refuse('patch the status of', obj),
  };
  return {
    get: (type, key, opts) => inner.get(type, key, opts),
    list: (type, opts) => inner.list(type, opts),
    create: (obj) => refuse('create', obj),
    update: (obj) => refuse('update', obj),
    patch: (obj) => refuse('patch', obj),
    delete: (obj) => refuse('delete', obj),
    deleteAllOf: (type) => refuse('delete all of', type),
    status: () => status,
  };
}
