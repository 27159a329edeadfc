// The temp dirs controller-scope makes (the sandbox's kubeconfig), removed on every way out: by whoever
// stops what uses them, and otherwise when the process exits (an error, process.exit from a signal during
// start-up) — an exit handler runs synchronously, so it removes them with rmSync.
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const live = new Set<string>();
let hooked = false;

/** A new directory under the OS temp dir, removed at exit if nothing removed it before. */
export async function makeTempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  live.add(dir);
  if (!hooked) {
    hooked = true;
    process.on('exit', removeAllSync);
  }
  return dir;
}

export async function removeTempDir(dir: string): Promise<void> {
  live.delete(dir);
  await rm(dir, { recursive: true, force: true });
}

function removeAllSync(): void {
  for (const dir of live) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Already gone, or not ours to remove any more: nothing else to do at exit.
    }
  }
  live.clear();
}
