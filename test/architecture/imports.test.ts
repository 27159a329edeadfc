// Proves the import rules of the house: the runtime knows nothing of transport, UI, clusters or demos;
// the web app and shared/ stay on their side. Scans import specifiers; fails with the offending lines.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function filesUnder(dir: string): string[] {
  const abs = join(root, dir);
  let entries: string[];
  try {
    entries = readdirSync(abs);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const p = join(abs, name);
    if (statSync(p).isDirectory()) return name === 'node_modules' ? [] : filesUnder(relative(root, p));
    return /\.(ts|tsx)$/.test(name) ? [relative(root, p)] : [];
  });
}

const IMPORT_RE = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

interface ImportSite {
  file: string;
  spec: string;
  /** Repo-relative target for relative imports; the package name otherwise. */
  target: string;
}

function importsOf(file: string): ImportSite[] {
  const text = readFileSync(join(root, file), 'utf8');
  const sites: ImportSite[] = [];
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2];
    if (!spec) continue;
    const target = spec.startsWith('.') ? relative(root, resolve(root, dirname(file), spec)) : spec;
    sites.push({ file, spec, target });
  }
  return sites;
}

function violations(dir: string, forbidden: (site: ImportSite) => boolean): string[] {
  return filesUnder(dir)
    .flatMap(importsOf)
    .filter(forbidden)
    .map((s) => `${s.file} imports '${s.spec}'`);
}

const isPackage = (s: ImportSite): boolean => !s.spec.startsWith('.');
const under = (s: ImportSite, ...prefixes: string[]): boolean =>
  prefixes.some((p) => s.target === p || s.target.startsWith(`${p}/`));

describe('import rules (design/architecture.md)', () => {
  it('server/runtime imports no transport, UI, cluster, dashboard, demo or web code', () => {
    const banned = new Set(['express', 'socket.io', 'socket.io-client', 'react', 'react-dom', 'recharts']);
    expect(
      violations(
        'server/runtime',
        (s) =>
          (isPackage(s) && banned.has(s.spec)) ||
          under(s, 'server/dashboard', 'server/cluster', 'server/demo', 'web', 'server/main', 'server/cli'),
      ),
    ).toEqual([]);
  });

  it('only server/runtime/client talks to @kubernetes/client-node inside the runtime', () => {
    expect(
      violations(
        'server/runtime',
        (s) => s.spec.startsWith('@kubernetes/client-node') && !s.file.startsWith('server/runtime/client/'),
      ),
    ).toEqual([]);
  });

  it('shared/ imports no node builtins, DOM-only or npm packages, and nothing outside shared/', () => {
    // Tests beside shared code may use the test runner and property-test library; the code itself may not.
    const testTools = new Set(['vitest', 'fast-check']);
    expect(
      violations(
        'shared',
        (s) =>
          (isPackage(s) && !(/\.test\.ts$/.test(s.file) && testTools.has(s.spec))) ||
          (!isPackage(s) && !under(s, 'shared')),
      ),
    ).toEqual([]);
  });

  it('web/ imports only shared/ (never server/)', () => {
    expect(violations('web', (s) => !isPackage(s) && !under(s, 'web', 'shared'))).toEqual([]);
    expect(violations('web', (s) => isPackage(s) && (s.spec.startsWith('node:') || s.spec === 'express'))).toEqual([]);
  });

  it('server/dashboard does not reach into server/cluster or server/demo (the composition root wires them)', () => {
    expect(violations('server/dashboard', (s) => under(s, 'server/cluster', 'server/demo', 'web'))).toEqual([]);
  });

  it('server/cluster uses the runtime only through its front door or client/cache barrels', () => {
    expect(
      violations(
        'server/cluster',
        (s) => under(s, 'server/dashboard', 'server/demo', 'web') || (isPackage(s) && s.spec === 'socket.io'),
      ),
    ).toEqual([]);
  });

  it('the scanner sees imports at all (guards against a test that cannot fail)', () => {
    const sites = importsOf('test/architecture/imports.test.ts');
    expect(sites.map((s) => s.spec)).toContain('vitest');
  });
});
