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

  private stopped = false;
  private timeoutSeconds: number | undefined;
  /** The newest resourceVersion seen per kind: where a watch the server ended resumes. */
  private readonly lastRv = new Map<ServerEvent['kind'], string>();

  /** Watches the server ended and this one resumed. */
  resumes = 0;

  /** timeoutSeconds asks the server to end each watch that soon (tests of the resume). */
  static async start(kubeconfigFile: string, opts: { timeoutSeconds?: number } = {}): Promise<ServerWatch> {
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfigFile);
    const w = new ServerWatch();
    w.timeoutSeconds = opts.timeoutSeconds;
    for (const [kind, path] of [
      ['ConfigMap', '/api/v1/configmaps'],
      ['Secret', '/api/v1/secrets'],
    ] as const) {
      // From resourceVersion 0-less "now": everything the oracle's workload does comes after this.
      await w.follow(kc, kind, path);
    }
    return w;
  }

  /**
   * kube-apiserver ends every watch after a random 30–60 minutes (--min-request-timeout): a long run must
   * resume from the last version seen, or every later version would read as "never delivered". A resume the
   * server can no longer serve (410) is a hole in the truth, reported as the watch's failure.
   */
  private async follow(kc: KubeConfig, kind: ServerEvent['kind'], path: string): Promise<void> {
    const from = this.lastRv.get(kind);
    const abort = await new Watch(kc).watch(
      path,
      {
        allowWatchBookmarks: false,
        ...(from !== undefined ? { resourceVersion: from } : {}),
        ...(this.timeoutSeconds !== undefined ? { timeoutSeconds: this.timeoutSeconds } : {}),
      },
      (type, obj: { metadata?: Record<string, string | undefined> }) => this.add(type, kind, obj),
      (err) => {
        if (this.stopped) return;
        if (err) this.failure = err;
        else if (!this.failure) {
          this.resumes++;
          this.follow(kc, kind, path).catch((e: unknown) => (this.failure = e));
        }
      },
    );
    this.aborts.push(abort);
  }

  private add(type: string, kind: ServerEvent['kind'], obj: { metadata?: Record<string, string | undefined> }): void {
    if (type === 'ERROR') {
      this.failure = new Error(`the server ended the ${kind} watch with an error (a 410 on resume: a hole)`);
      return;
    }
    if (type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED') return;
    const m = obj.metadata ?? {};
    if (m['resourceVersion']) this.lastRv.set(kind, m['resourceVersion']);
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
    this.stopped = true;
    for (const a of this.aborts) a.abort();
  }
}
