// Module hooks for `controller-scope run --watch`. A user's module is imported with a generation in its URL
// (?cs-generation=M.N: module M's Nth load); every local file it imports inherits that generation, so a reload evaluates the user's
// whole import graph afresh while the runtime itself (this package's server/ and shared/) and node_modules
// stay the single copies the dashboard holds. Each file loaded under a generation is reported to the main
// thread, which watches exactly those files.
import { fileURLToPath } from 'node:url';

const PARAM = 'cs-generation';
let port;
let excluded = [];

export function initialize(data) {
  port = data.port;
  excluded = data.excluded;
}

function generationOf(url) {
  if (!url || !url.startsWith('file:')) return undefined;
  const q = url.indexOf('?');
  if (q < 0) return undefined;
  return new URLSearchParams(url.slice(q + 1)).get(PARAM) ?? undefined;
}

function isUserFile(url) {
  return url.startsWith('file:') && !url.includes('/node_modules/') && !excluded.some((root) => url.startsWith(root));
}

// A user's TypeScript is written as ES modules (import/export, top-level await) whatever the nearest
// package.json says: `npm init -y` makes "type": "commonjs", and loading their file as CommonJS would give it
// a second copy of this package's runtime (through require) and fail on the first `import type`.
const TYPESCRIPT = /\.(ts|tsx|mts)$/;

function asModule(resolved) {
  if (!isUserFile(resolved.url) || generationOf(resolved.url) === undefined) return resolved;
  const path = new URL(resolved.url).pathname;
  return TYPESCRIPT.test(path) && resolved.format !== 'module' ? { ...resolved, format: 'module' } : resolved;
}

export async function resolve(specifier, context, next) {
  return asModule(await resolveGeneration(specifier, context, next));
}

async function resolveGeneration(specifier, context, next) {
  const resolved = await next(specifier, context);
  const generation = generationOf(context.parentURL);
  if (generation === undefined || !isUserFile(resolved.url) || generationOf(resolved.url) !== undefined) {
    return resolved;
  }
  const url = new URL(resolved.url);
  url.searchParams.set(PARAM, generation);
  return { ...resolved, url: url.href };
}

export async function load(url, context, next) {
  const loaded = await next(url, context);
  if (port && generationOf(url) !== undefined) {
    const plain = new URL(url);
    plain.search = '';
    port.postMessage({ path: fileURLToPath(plain), tag: generationOf(url) });
  }
  return loaded;
}
