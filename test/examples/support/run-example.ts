// `npx controller-scope run examples/<name>/controller.ts [cluster flags]` as a user types it: the real CLI in a
// child process (test/run/support/cli-process.ts), its dashboard read over socket.io into the browser's own
// store, so the assertions are about what a page would show.
import { io } from 'socket.io-client';
import { startCli, type CliProcess } from '../../run/support/cli-process';
import { getConfig, type RestConfig } from '../../../server/runtime';
import type { Ack } from '../../../shared/protocol/commands';
import type { InspectRequest, InspectResult } from '../../../shared/protocol/socket';
import { PROTOCOL_VERSION } from '../../../shared/protocol/version';

export interface RunningExample {
  cli: CliProcess;
  /** Admin access to the cluster the example runs against, for checking what it wrote. */
  config: RestConfig;
  stop(): Promise<void>;
}

/**
 * clusterArgs: [] for the embedded sandbox, or ['--kubeconfig', FILE] (the example writes, so --allow-writes
 * is added for a real cluster).
 */
export async function runExample(file: string, clusterArgs: string[]): Promise<RunningExample> {
  const real = clusterArgs.includes('--kubeconfig');
  const cli = await startCli(['run', file, ...clusterArgs, ...(real ? ['--allow-writes'] : []), '--port', '0'], {
    env: { KUBECONFIG: '' },
  });
  try {
    // The sandbox prints the kubeconfig it wrote; a real cluster's is the one we passed.
    const kubeconfig = real
      ? clusterArgs[clusterArgs.indexOf('--kubeconfig') + 1]
      : /export KUBECONFIG=(\S+)/.exec(cli.output())?.[1];
    if (!kubeconfig) throw new Error(`no kubeconfig in the output:\n${cli.output()}`);
    return { cli, config: getConfig({ kubeconfig, env: {}, argv: [] }), stop: () => cli.stop() };
  } catch (err) {
    await cli.stop();
    throw err;
  }
}

/** One inspect request, as the Indexer and Trace panels send it (loopback: no token). */
export async function inspect(url: string, req: InspectRequest): Promise<InspectResult> {
  const socket = io(url, { transports: ['websocket'], forceNew: true, reconnection: false });
  try {
    await new Promise<void>((ok, fail) => {
      socket.once('connect', () => ok());
      socket.once('connect_error', fail);
    });
    await socket.emitWithAck('hello', { protocolVersion: PROTOCOL_VERSION });
    const res = (await socket.emitWithAck('inspect', req)) as Ack<InspectResult>;
    if (!res.ok) throw new Error(`inspect ${req.target}: ${res.error}`);
    return res.result;
  } finally {
    socket.close();
  }
}

export async function eventually<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  what: string,
  ms = 30_000,
): Promise<T> {
  const until = Date.now() + ms;
  let lastErr: unknown;
  while (Date.now() < until) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (err) {
      lastErr = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${lastErr ? `: ${String(lastErr)}` : ''}`);
}
