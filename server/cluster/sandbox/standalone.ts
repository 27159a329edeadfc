// `controller-scope sandbox --port P --kubeconfig-out FILE`: runs the sandbox on its own until a
// signal arrives. The CLI parses flags and calls runStandaloneSandbox.
import { SandboxServer, type SandboxServerOptions } from './server';

export interface StandaloneSandboxOptions extends SandboxServerOptions {
  /** Where to write a kubeconfig for kubectl and client libraries; skipped when unset. */
  kubeconfigOut?: string;
  /** Stops the server when aborted; default: SIGINT/SIGTERM. */
  signal?: AbortSignal;
  /** Progress lines; default console.log. */
  log?: (line: string) => void;
}

export interface StandaloneSandbox {
  server: SandboxServer;
  url: string;
  /** Resolves when the server has stopped. */
  done: Promise<void>;
}

export async function runStandaloneSandbox(opts: StandaloneSandboxOptions = {}): Promise<StandaloneSandbox> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const server = new SandboxServer(opts);
  const { url } = await server.start();
  log(`sandbox API server listening on ${url}`);
  if (opts.kubeconfigOut) {
    await server.writeKubeconfig(opts.kubeconfigOut);
    log(`kubeconfig written to ${opts.kubeconfigOut} (kubectl --kubeconfig ${opts.kubeconfigOut} get ns)`);
  }
  const done = new Promise<void>((resolve) => {
    const finish = (): void => {
      process.off('SIGINT', finish);
      process.off('SIGTERM', finish);
      void server.stop().then(() => resolve());
    };
    if (opts.signal) {
      if (opts.signal.aborted) finish();
      else opts.signal.addEventListener('abort', finish, { once: true });
    } else {
      process.once('SIGINT', finish);
      process.once('SIGTERM', finish);
    }
  });
  return { server, url, done };
}
