// Imports a user's module at a generation (see reload-hooks.mjs) and reports which files each import loaded.
// The hooks are registered once per process, the first time a module is imported.
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
import { dirname, resolve as resolvePath } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** This package's own code: imported once, never re-evaluated, so the dashboard and the user share it. */
export const PACKAGE_ROOT = resolvePath(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SHARED_ROOTS = ['server', 'shared'].map((d) => pathToFileURL(resolvePath(PACKAGE_ROOT, d)).href + '/');

/** tag is the generation the file was loaded under, "M.N" as importGeneration was given it. */
type LoadedListener = (path: string, tag: string) => void;
const listeners = new Set<LoadedListener>();
let registered = false;

function ensureHooks(): void {
  if (registered) return;
  registered = true;
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (m: { path: string; tag: string }) => {
    for (const l of listeners) l(m.path, m.tag);
  });
  port1.unref();
  register('./reload-hooks.mjs', import.meta.url, {
    data: { port: port2, excluded: SHARED_ROOTS },
    transferList: [port2],
  });
}

/** Calls listener with every file loaded under a generation; returns an unsubscribe. */
export function onFileLoaded(listener: LoadedListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The module at path, evaluated afresh for this generation together with the local files it imports. */
export async function importGeneration(path: string, tag: string): Promise<Record<string, unknown>> {
  ensureHooks();
  const url = new URL(pathToFileURL(resolvePath(path)).href);
  url.searchParams.set('cs-generation', tag);
  return (await import(url.href)) as Record<string, unknown>;
}
