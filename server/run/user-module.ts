// What a user's controller module must export, and turning anything that goes wrong while loading or setting
// it up into one ModuleError: the message, the file and line it points at, and what was expected.
import { fileURLToPath } from 'node:url';
import { resolve as resolvePath } from 'node:path';
import type { ModuleError } from '../../shared/protocol/events';
import type { Manager } from '../runtime';
import { errorMessage, isError } from '../runtime';

/** The function `run` calls with the manager; it registers the module's controllers. */
export type SetupFunction = (mgr: Manager) => unknown;

export const EXPECTED_EXPORT =
  'a setup function that takes the manager: `export default async function setup(mgr: Manager)`, ' +
  'or a named export `setup` or `setupWithManager`, or a default export object with a setupWithManager(mgr) method';

export interface FoundSetup {
  setup: SetupFunction;
  /** Which export it was, for the log line. */
  exportName: string;
}

type Exports = Record<string, unknown>;

const isFunction = (v: unknown): v is (...args: unknown[]) => unknown => typeof v === 'function';

/** Finds the setup function in a module's exports, in the documented order; undefined when there is none. */
export function findSetup(exports: Exports): FoundSetup | undefined {
  const def = exports['default'];
  if (isFunction(def) && !isClass(def)) return { setup: def as SetupFunction, exportName: 'default' };
  for (const name of ['setup', 'setupWithManager'] as const) {
    const v = exports[name];
    if (isFunction(v)) return { setup: v as SetupFunction, exportName: name };
  }
  if (def !== null && typeof def === 'object') {
    const method = (def as { setupWithManager?: unknown }).setupWithManager;
    if (isFunction(method)) {
      return { setup: (mgr) => method.call(def, mgr), exportName: 'default.setupWithManager' };
    }
  }
  return undefined;
}

function isClass(fn: (...args: unknown[]) => unknown): boolean {
  return /^class[\s{]/.test(Function.prototype.toString.call(fn));
}

/** The error for a module whose exports hold no setup function, listing what it does export. */
export function noSetupError(file: string, exports: Exports): ModuleError {
  const names = Object.keys(exports);
  const def = exports['default'];
  const what =
    names.length === 0
      ? 'it exports nothing'
      : `it exports ${names.map((n) => `${n} (${describeValue(n === 'default' ? def : exports[n])})`).join(', ')}`;
  return { message: `${file} has no setup function: ${what}`, expected: EXPECTED_EXPORT };
}

function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (isFunction(v)) return isClass(v) ? 'a class' : 'a function';
  return Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/**
 * A thrown value as a ModuleError pointing into the user's code: the first stack frame outside this package
 * and node_modules, or the file:line a compiler error names.
 */
export function moduleErrorOf(err: unknown, file: string, stage: 'load' | 'setup', packageRoot: string): ModuleError {
  const message = errorMessage(err);
  const prefix = stage === 'load' ? `${file} failed to load` : `setup in ${file} threw`;
  const at = locate(err, packageRoot);
  // esbuild's "Transform failed with 1 error:" says nothing; the line after it names the problem.
  const compilerError = /: ERROR: ([^\n]+)/.exec(message)?.[1];
  return { message: `${prefix}: ${compilerError ?? firstLine(message)}`, ...(at ? { at } : {}) };
}

function firstLine(s: string): string {
  const line = s.split('\n').find((l) => l.trim() !== '') ?? s;
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}

function locate(err: unknown, packageRoot: string): ModuleError['at'] {
  let message = '';
  let stack = '';
  try {
    if (isError(err)) {
      message = String(err.message);
      stack = String(err.stack ?? '');
    }
  } catch {
    // A message or stack getter that throws: no place to point at.
  }
  const text = `${message}\n${stack}`;
  const root = resolvePath(packageRoot);
  // Compiler errors (esbuild through tsx) name the place as "path:line:column: ERROR" in the message.
  const compiled = /(\/[^\s:]+\.[cm]?[jt]sx?):(\d+):(\d+)/.exec(message);
  if (compiled) return { file: compiled[1] as string, line: Number(compiled[2]), column: Number(compiled[3]) };
  for (const m of text.matchAll(/(?:\(|at )((?:file:\/\/)?\/[^\s()]+?):(\d+):(\d+)\)?/g)) {
    const raw = m[1] as string;
    const path = raw.startsWith('file:') ? fileURLToPath(raw.replace(/\?.*$/, '')) : raw.replace(/\?.*$/, '');
    if (path.includes('/node_modules/') || path.startsWith(`${root}/server/`) || path.startsWith(`${root}/shared/`)) {
      continue;
    }
    return { file: path, line: Number(m[2]), column: Number(m[3]) };
  }
  return undefined;
}
