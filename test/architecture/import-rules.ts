// The import rules of the house as data, and a checker that applies them to source text. The test runs it
// on the repository and on planted violations, so each rule is shown to catch what its title names.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface SourceFile {
  /** Repo-relative path. */
  path: string;
  text: string;
}

export interface ImportSite {
  file: string;
  spec: string;
  /** Repo-relative target for relative imports; the package name otherwise. */
  target: string;
  /** `import type`, `export type`, or braces whose every name is marked `type`. */
  typeOnly: boolean;
}

const IMPORT_RE =
  /(?:^|\n)\s*(?:import|export)\s+([^'";]*?)\s*from\s+['"]([^'"]+)['"]|(?:^|\n)\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function isTypeOnly(clause: string | undefined): boolean {
  if (!clause) return false;
  if (/^type\s/.test(clause)) return true;
  const braces = /^\{([^}]*)\}$/.exec(clause.trim());
  if (!braces) return false;
  const names = (braces[1] ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith('type '));
}

export function importsOf(file: SourceFile): ImportSite[] {
  const sites: ImportSite[] = [];
  for (const m of file.text.matchAll(IMPORT_RE)) {
    const spec = m[2] ?? m[3] ?? m[4];
    if (!spec) continue;
    const target = spec.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file.path), spec)) : spec;
    sites.push({ file: file.path, spec, target, typeOnly: isTypeOnly(m[1]) });
  }
  return sites;
}

const isPackage = (s: ImportSite): boolean => !s.spec.startsWith('.');
const under = (s: ImportSite, ...prefixes: string[]): boolean =>
  prefixes.some((p) => s.target === p || s.target.startsWith(`${p}/`));
const isTest = (path: string): boolean => /\.test\.tsx?$/.test(path);

export interface Rule {
  title: string;
  /** Which files the rule reads. */
  applies: (path: string) => boolean;
  forbidden: (s: ImportSite) => boolean;
}

const RUNTIME_BANNED = new Set(['express', 'socket.io', 'socket.io-client', 'react', 'react-dom', 'recharts']);
const RUNTIME_DOORS = new Set([
  'server/runtime',
  'server/runtime/index',
  'server/runtime/cache',
  'server/runtime/cache/index',
  'server/runtime/client',
  'server/runtime/client/index',
]);
const SHARED_TEST_TOOLS = new Set(['vitest', 'fast-check']);

export const RULES: readonly Rule[] = [
  {
    title: 'server/runtime imports no transport, UI, cluster, dashboard, demo or web code',
    applies: (p) => p.startsWith('server/runtime/'),
    forbidden: (s) =>
      (isPackage(s) && RUNTIME_BANNED.has(s.spec)) ||
      under(s, 'server/dashboard', 'server/cluster', 'server/demo', 'web', 'server/main', 'server/cli'),
  },
  {
    title: 'only server/runtime/client talks to @kubernetes/client-node inside the runtime',
    applies: (p) => p.startsWith('server/runtime/') && !p.startsWith('server/runtime/client/'),
    forbidden: (s) => s.spec.startsWith('@kubernetes/client-node'),
  },
  {
    // The runtime emits wire types; the protocol's code (reducers, tables) is the dashboard's business.
    title: 'the runtime imports only types from shared/protocol (tests may use its tables)',
    applies: (p) => p.startsWith('server/runtime/') && !isTest(p),
    forbidden: (s) => under(s, 'shared/protocol') && !s.typeOnly,
  },
  {
    title: 'shared/ imports no node builtins, DOM-only or npm packages, and nothing outside shared/',
    applies: (p) => p.startsWith('shared/'),
    forbidden: (s) =>
      (isPackage(s) && !(isTest(s.file) && SHARED_TEST_TOOLS.has(s.spec))) || (!isPackage(s) && !under(s, 'shared')),
  },
  {
    title: 'web/ imports only web/ and shared/ (never server/), and no node builtins or express',
    applies: (p) => p.startsWith('web/'),
    forbidden: (s) =>
      (!isPackage(s) && !under(s, 'web', 'shared')) ||
      (isPackage(s) && (s.spec.startsWith('node:') || s.spec === 'express')),
  },
  {
    title: 'server/dashboard does not reach into server/cluster, server/demo or web (the composition root wires them)',
    applies: (p) => p.startsWith('server/dashboard/'),
    forbidden: (s) => under(s, 'server/cluster', 'server/demo', 'web'),
  },
  {
    // Tracing is an audience like the dashboard: it reads the probe stream, and the port stays unaware of it.
    title: 'only server/otel imports OpenTelemetry (the runtime, dashboard and shared code never do)',
    applies: (p) => !p.startsWith('server/otel/'),
    forbidden: (s) => isPackage(s) && s.spec.startsWith('@opentelemetry/'),
  },
  {
    title: 'server/cluster uses the runtime only through its front door or the cache/client barrels',
    applies: (p) => p.startsWith('server/cluster/'),
    forbidden: (s) =>
      under(s, 'server/dashboard', 'server/demo', 'web') ||
      (isPackage(s) && s.spec === 'socket.io') ||
      (under(s, 'server/runtime') &&
        !RUNTIME_DOORS.has(s.target) &&
        // Tests may use the runtime's test helpers.
        !(isTest(s.file) && under(s, 'server/runtime/testing'))),
  },
];

export function violations(files: readonly SourceFile[], rule: Rule): string[] {
  return files
    .filter((f) => rule.applies(f.path))
    .flatMap(importsOf)
    .filter(rule.forbidden)
    .map((s) => `${s.file} imports '${s.spec}'`);
}

/** Every .ts/.tsx file under the given repo-relative folders. */
export function repoFiles(...dirs: string[]): SourceFile[] {
  const walk = (dir: string): string[] => {
    let entries: string[];
    try {
      entries = readdirSync(join(ROOT, dir));
    } catch {
      return [];
    }
    return entries.flatMap((name) => {
      const p = join(dir, name);
      if (statSync(join(ROOT, p)).isDirectory()) return name === 'node_modules' ? [] : walk(p);
      return /\.(ts|tsx)$/.test(name) ? [p] : [];
    });
  };
  return dirs.flatMap(walk).map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
}
