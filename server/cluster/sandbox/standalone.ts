// `controller-scope sandbox [--bare] --port P --kubeconfig-out FILE`: runs the sandbox on its own until a
// signal arrives, for a user's own operator, kubectl or any client. By default the cluster has a life as
// the embedded sandbox does (simulated nodes, the built-in controllers, garbage collector and namespace
// lifecycle) but no generated workload; `bare` leaves only the API server, like envtest.
import { makeTempDir, removeTempDir } from '../temp-dir';
import { join } from 'node:path';
import { getConfig } from '../../runtime/client';
import { startClusterControllers, type ClusterControllers } from './life';
import { SandboxServer, type SandboxServerOptions } from './server';

export interface StandaloneSandboxOptions extends SandboxServerOptions {
  /** Where to write a kubeconfig for kubectl and client libraries; skipped when unset. */
  kubeconfigOut?: string;
  /** Only the API server: no nodes, no built-in controllers (garbage collector and namespace lifecycle stay). */
  bare?: boolean;
  /** Stops the server when aborted; default: SIGINT/SIGTERM. */
  signal?: AbortSignal;
  /** Progress lines; default console.log. */
  log?: (line: string) => void;
}

export interface StandaloneSandbox {
  server: SandboxServer;
  url: string;
  /** The built-in controllers and simulated nodes; absent with `bare`. */
  cluster?: ClusterControllers;
  /** Resolves when the server has stopped. */
  done: Promise<void>;
}

export async function runStandaloneSandbox(opts: StandaloneSandboxOptions = {}): Promise<StandaloneSandbox> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const server = new SandboxServer(opts);
  const { url } = await server.start();
  log(`sandbox API server listening on ${url}`);
  const { token } = server.access;
  if (token !== undefined) {
    // Off loopback the cluster (Secrets included) is only served to holders of the token.
    const where = opts.kubeconfigOut ? `it is in ${opts.kubeconfigOut}` : `token: ${token}`;
    log(`every request needs "Authorization: Bearer <token>" (not listening on loopback only); ${where}`);
  }
  let cluster: ClusterControllers | undefined;
  // The controllers are clients like any other: they read the same kubeconfig a user would.
  const dir = await makeTempDir('controller-scope-sandbox-');
  try {
    if (!opts.bare) {
      const file = join(dir, 'kubeconfig');
      await server.writeKubeconfig(file);
      cluster = await startClusterControllers({
        config: getConfig({ kubeconfig: file, argv: [], env: {} }),
        store: server.store,
      });
      log('simulated nodes and built-in controllers running (--bare for the API server alone)');
    }
    if (opts.kubeconfigOut) {
      await server.writeKubeconfig(opts.kubeconfigOut);
      log(`kubeconfig written to ${opts.kubeconfigOut} (kubectl --kubeconfig ${opts.kubeconfigOut} get ns)`);
    }
  } catch (err) {
    await cluster?.stop();
    await server.stop();
    await removeTempDir(dir);
    throw err;
  }
  const done = new Promise<void>((resolve) => {
    const finish = (): void => {
      process.off('SIGINT', finish);
      process.off('SIGTERM', finish);
      void (async () => {
        await cluster?.stop();
        await server.stop();
        await removeTempDir(dir);
        resolve();
      })();
    };
    if (opts.signal) {
      if (opts.signal.aborted) finish();
      else opts.signal.addEventListener('abort', finish, { once: true });
    } else {
      process.once('SIGINT', finish);
      process.once('SIGTERM', finish);
    }
  });
  return { server, url, ...(cluster ? { cluster } : {}), done };
}
