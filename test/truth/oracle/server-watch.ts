// The API server's own account of what happened: a watch of ConfigMaps and Secrets through
// @kubernetes/client-node, apart from everything the dashboard reads. Each version of each object the
// server delivered, with its type, is what a cause may claim to be.
import { KubeConfig, Watch } from '@kubernetes/client-node';

export interface ServerEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  kind: 'ConfigMap' | 'Secret';
  namespace: string;
  name: string;
  uid: string;
  resourceVersion: string;
}

export class ServerWatch {
  readonly events: ServerEvent[] = [];
  /** uid + '@' + resourceVersion → the event that delivered it. */
  private readonly byVersion = new Map<string, ServerEvent>();
  private readonly aborts: AbortController[] = [];
  private failure: unknown;

  static async start(kubeconfigFile: string): Promise<ServerWatch> {
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfigFile);
    const w = new ServerWatch();
    for (const [kind, path] of [
      ['ConfigMap', '/api/v1/configmaps'],
      ['Secret', '/api/v1/secrets'],
    ] as const) {
      // From resourceVersion 0-less "now": everything the oracle's workload does comes after this.
      const abort = await new Watch(kc).watch(
        path,
        { allowWatchBookmarks: false },
        (type, obj: { metadata?: { namespace?: string; name?: string; uid?: string; resourceVersion?: string } }) =>
          w.add(type, kind, obj),
        (err) => {
          if (err && !w.aborts.some((a) => a.signal.aborted)) w.failure = err;
        },
      );
      w.aborts.push(abort);
    }
    return w;
  }

  private add(type: string, kind: ServerEvent['kind'], obj: { metadata?: Record<string, string | undefined> }): void {
    if (type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED') return;
    const m = obj.metadata ?? {};
    const ev: ServerEvent = {
      type,
      kind,
      namespace: m['namespace'] ?? '',
      name: m['name'] ?? '',
      uid: m['uid'] ?? '',
      resourceVersion: m['resourceVersion'] ?? '',
    };
    this.events.push(ev);
    this.byVersion.set(`${ev.uid}@${ev.resourceVersion}`, ev);
  }

  /** The event that delivered this version of this object, if the server delivered one. */
  delivered(uid: string, resourceVersion: string): ServerEvent | undefined {
    return this.byVersion.get(`${uid}@${resourceVersion}`);
  }

  /** Throws when the watch broke: ground truth with a hole in it proves nothing. */
  check(): void {
    if (this.failure) throw new Error(`the oracle's own watch of the API server failed: ${String(this.failure)}`);
  }

  stop(): void {
    for (const a of this.aborts) a.abort();
  }
}
