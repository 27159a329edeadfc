// How far V8 lets the old generation grow past what the last full collection kept. Left to its own
// heuristics on a large machine, V8 lets a dashboard holding 100,000 cached objects reach twice its live
// heap before it collects again (the scale bench: 503 MB live, 1.6 GB RSS). The dashboard is a process
// people leave running beside their controller, so the CLI trades a few mark-compacts a minute (about
// 0.13 s of CPU a minute in that run) for an RSS near its live set. The flag is process-wide, so only
// the CLI, which owns its process, sets it; a user's own main keeps V8's default unless it passes the flag.
import { setFlagsFromString } from 'node:v8';

export const HEAP_GROWING_PERCENT = 30;
export const HEAP_POLICY_ENV = 'CONTROLLER_SCOPE_HEAP_GROWING_PERCENT';

const FLAG = '--heap-growing-percent';

/**
 * The V8 flag the CLI sets, or undefined to leave V8 alone: when node was started with the flag already
 * (it is not accepted in NODE_OPTIONS, so execArgv is where a user's choice shows), or when the
 * environment says `default`. Any other value of the environment variable must be a percent.
 */
export function heapPolicyFlag(execArgv: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  if (execArgv.some((a) => a === FLAG || a.startsWith(`${FLAG}=`) || a.startsWith('--heap_growing_percent')))
    return undefined;
  const raw = env[HEAP_POLICY_ENV]?.trim();
  if (raw === undefined || raw === '') return `${FLAG}=${HEAP_GROWING_PERCENT}`;
  if (raw === 'default') return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > 1000)
    throw new Error(
      `${HEAP_POLICY_ENV}=${JSON.stringify(raw)} is not a percent: give a whole number from 1 to 1000 ` +
        `(${HEAP_GROWING_PERCENT} is the CLI's default), or "default" to keep V8's own heap growth`,
    );
  return `${FLAG}=${n}`;
}

/** Applies heapPolicyFlag to this process; returns the flag set, if any. */
export function applyHeapPolicy(
  execArgv: readonly string[] = process.execArgv,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const flag = heapPolicyFlag(execArgv, env);
  if (flag) setFlagsFromString(flag);
  return flag;
}
