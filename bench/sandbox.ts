// Workload 5: our client stack against the embedded API server (running in its own process, see
// sandbox-host.ts) over HTTP/JSON: LIST of the seeded configmaps in one page and in pages of 500, an informer
// syncing them (LIST at resourceVersion 0, which the sandbox serves in one page as the watch cache does, then
// WATCH), and a watch replaying every write since the seed began. The Go peer runs the same with client-go.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { KubeObject } from '../shared/models/object';
import { metaNamespaceIndexFunc, NAMESPACE_INDEX, newSharedIndexInformer } from '../server/runtime/cache';
import { HttpClient, newListWatchFromClient, RestConfig } from '../server/runtime/client';
import { measure, startTimer, type Figure } from './harness';
import type { SandboxSeed } from './sandbox-host';
import type { Shape } from './shapes';

export const listLabel = (objects: number, paged: boolean): string =>
  `sandbox list ${objects / 1000}k configmaps (${paged ? 'pages of 500' : 'one page'})`;
export const watchLabel = (events: number): string => `sandbox watch replay ${events / 1000}k events`;
export const informerSyncLabel = (objects: number): string => `sandbox informer sync ${objects / 1000}k configmaps`;

export interface SandboxHost {
  seed: SandboxSeed;
  pid: number;
  stop(): Promise<void>;
}

/** Starts bench/sandbox-host.ts in a child node process and waits for its seed line (0 and 0: no seed). */
export async function startSandboxHost(s: Pick<Shape, 'configMaps' | 'configMapUpdates'>): Promise<SandboxHost> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      new URL('./sandbox-host.ts', import.meta.url).pathname,
      String(s.configMaps),
      String(s.configMapUpdates),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (l) => {
      rl.close();
      resolve(l);
    });
    child.once('exit', (code) => reject(new Error(`sandbox host exited (${code}) before it was ready`)));
  });
  const seed = JSON.parse(line) as SandboxSeed;
  return {
    seed,
    pid: child.pid ?? 0,
    stop: async () => {
      child.stdin?.end();
      const t = setTimeout(() => child.kill(), 5000);
      await exited;
      clearTimeout(t);
    },
  };
}

export async function benchSandbox(s: Shape, seed: SandboxSeed): Promise<Figure[]> {
  const http = new HttpClient({ config: RestConfig.forServer(seed.url) });
  const lw = newListWatchFromClient({
    http,
    gvr: { group: '', version: 'v1', resource: 'configmaps' },
    namespace: seed.namespace,
  });
  const out: Figure[] = [];
  try {
    for (const limit of [0, 500]) {
      out.push(
        await measure(listLabel(seed.objects, limit > 0), seed.objects, s.reps, async () => {
          const timer = startTimer();
          let got = 0;
          let cont: string | undefined;
          do {
            const page = await lw.list({ ...(limit ? { limit } : {}), ...(cont ? { continue: cont } : {}) });
            got += page.items.length;
            cont = page.metadata.continue;
          } while (cont);
          if (got !== seed.objects) throw new Error(`listed ${got} configmaps, want ${seed.objects}`);
          return timer.stop();
        }),
      );
    }
    out.push(
      await measure(informerSyncLabel(seed.objects), seed.objects, s.reps, async () => {
        const informer = newSharedIndexInformer<KubeObject>({
          listerWatcher: lw,
          objectType: 'v1/ConfigMap',
          indexers: { [NAMESPACE_INDEX]: metaNamespaceIndexFunc },
        });
        let count = 0;
        let synced!: () => void;
        const allAdded = new Promise<void>((r) => (synced = r));
        informer.addEventHandler({ onAdd: () => void (++count === seed.objects && synced()) });
        const ctl = new AbortController();
        const timer = startTimer();
        const running = informer.run(ctl.signal);
        await allAdded;
        const t = timer.stop();
        ctl.abort();
        await running;
        return t;
      }),
    );
    out.push(
      await measure(watchLabel(seed.events), seed.events, s.reps, async () => {
        const timer = startTimer();
        const stream = await lw.watch({ resourceVersion: seed.fromRV });
        let got = 0;
        for await (const ev of stream) {
          if (ev.type === 'ERROR') throw new Error(`watch error: ${JSON.stringify(ev.object)}`);
          if (++got === seed.events) break;
        }
        stream.stop();
        if (got !== seed.events) throw new Error(`watched ${got} events, want ${seed.events}`);
        return timer.stop();
      }),
    );
  } finally {
    http.close();
  }
  return out;
}
