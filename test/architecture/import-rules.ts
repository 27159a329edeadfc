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
/** A test or a suite's support file: tests may reach inside a room to set it up. */
const isTestFile = (path: string): boolean => isTest(path) || path.startsWith('test/');

const RUNTIME_BANNED = new Set(['express', 'socket.io', 'socket.io-client', 'react', 'react-dom', 'recharts']);
const RUNTIME_DOORS = new Set([
  'server/runtime',
  'server/runtime/index',
  'server/runtime/cache',
  'server/runtime/cache/index',
  'server/runtime/client',
  'server/runtime/client/index',
]);
const RUNTIME_FRONT_DOOR = new Set(['server/runtime', 'server/runtime/index']);
const RUNTIME_BARRELS = new Set([...RUNTIME_DOORS, 'server/runtime/workqueue', 'server/runtime/workqueue/index']);
const DASHBOARD_DOOR = new Set(['server/dashboard', 'server/dashboard/index']);
/** Recorder parts the bench measures alone, each beside the whole Recorder it also measures. */
const BENCH_MEASURES_ALONE = new Set(['server/dashboard/recorder/event-ring']);
const SHARED_TEST_TOOLS = new Set(['vitest', 'fast-check']);

export interface Rule {
  title: string;
  /** Which files the rule reads. */
  applies: (path: string) => boolean;
  forbidden: (s: ImportSite) => boolean;
  /** The room the rule speaks for: its row's first cell in docs/architecture.md's generated rule table. */
  room: string;
}

/** Everything a room of the product may not reach: the suites, the browser, the demos, the composition root. */
const NOT_PRODUCT = ['test', 'web', 'server/demo', 'server/main', 'server/cli', 'server/cli-options'];

export const RULES: readonly Rule[] = [
  {
    title: 'server/runtime imports no transport, UI, cluster, dashboard, demo or web code',
    room: 'server/runtime/',
    applies: (p) => p.startsWith('server/runtime/'),
    forbidden: (s) =>
      (isPackage(s) && RUNTIME_BANNED.has(s.spec)) ||
      under(s, 'server/dashboard', 'server/cluster', 'server/demo', 'web', 'server/main', 'server/cli'),
  },
  {
    title: 'only server/runtime/client talks to @kubernetes/client-node inside the runtime',
    room: 'server/runtime/',
    applies: (p) => p.startsWith('server/runtime/') && !p.startsWith('server/runtime/client/'),
    forbidden: (s) => s.spec.startsWith('@kubernetes/client-node'),
  },
  {
    // The runtime emits wire types; the protocol's code (reducers, tables) is the dashboard's business.
    title: 'the runtime imports only types from shared/protocol (tests may use its tables)',
    room: 'server/runtime/',
    applies: (p) => p.startsWith('server/runtime/') && !isTest(p),
    forbidden: (s) => under(s, 'shared/protocol') && !s.typeOnly,
  },
  {
    title: 'shared/ imports no node builtins, DOM-only or npm packages, and nothing outside shared/',
    room: 'shared/',
    applies: (p) => p.startsWith('shared/'),
    forbidden: (s) =>
      (isPackage(s) && !(isTest(s.file) && SHARED_TEST_TOOLS.has(s.spec))) || (!isPackage(s) && !under(s, 'shared')),
  },
  {
    title: 'web/ imports only web/ and shared/ (never server/), and no node builtins or express',
    room: 'web/',
    applies: (p) => p.startsWith('web/'),
    forbidden: (s) =>
      (!isPackage(s) && !under(s, 'web', 'shared')) ||
      (isPackage(s) && (s.spec.startsWith('node:') || s.spec === 'express')),
  },
  {
    title: 'server/dashboard does not reach into server/cluster, server/demo or web (the composition root wires them)',
    room: 'server/dashboard/',
    applies: (p) => p.startsWith('server/dashboard/'),
    forbidden: (s) => under(s, 'server/cluster', 'server/demo', 'web'),
  },
  {
    // Tracing is an audience like the dashboard: it reads the probe stream, and the port stays unaware of it.
    // The bench is the one other reader: it measures the SDK's own cost beside ours.
    title:
      'only server/otel imports OpenTelemetry (the runtime, dashboard and shared code never do; the bench measures it)',
    room: 'server/otel/',
    applies: (p) => !p.startsWith('server/otel/') && !p.startsWith('bench/'),
    forbidden: (s) => isPackage(s) && s.spec.startsWith('@opentelemetry/'),
  },
  {
    title: 'server/cluster uses the runtime only through its front door or the cache/client barrels',
    room: 'server/cluster/',
    applies: (p) => p.startsWith('server/cluster/'),
    forbidden: (s) =>
      under(s, 'server/dashboard', 'server/demo', 'web') ||
      (isPackage(s) && s.spec === 'socket.io') ||
      (under(s, 'server/runtime') &&
        !RUNTIME_DOORS.has(s.target) &&
        // Tests may use the runtime's test helpers.
        !(isTest(s.file) && under(s, 'server/runtime/testing'))),
  },
  {
    title: 'server/run uses the runtime only through its front door, and no dashboard, cluster, demo or web code',
    room: 'server/run/',
    applies: (p) => p.startsWith('server/run/'),
    forbidden: (s) =>
      under(s, 'server/dashboard', 'server/cluster', 'server/demo', 'web', 'server/main', 'server/cli') ||
      (under(s, 'server/runtime') && !RUNTIME_FRONT_DOOR.has(s.target)),
  },
  {
    // The demos are what the dashboard shows; a demo that started it would be a second composition root.
    title: "server/demo imports only the runtime's front door and shared/ (never the dashboard or a cluster)",
    room: 'server/demo/',
    applies: (p) => p.startsWith('server/demo/'),
    forbidden: (s) => !isPackage(s) && !under(s, 'server/demo', 'shared') && !RUNTIME_FRONT_DOOR.has(s.target),
  },
  {
    title: 'files outside server/dashboard use it only through its front door, server/dashboard/index.ts (tests aside)',
    room: 'server/dashboard/',
    applies: (p) => !p.startsWith('server/dashboard/') && !p.startsWith('bench/') && !isTestFile(p),
    forbidden: (s) => under(s, 'server/dashboard') && !DASHBOARD_DOOR.has(s.target),
  },
  {
    title:
      "bench/ uses the product through its doors: the runtime's front door or barrels, the dashboard's front door (and the recorder's ring, measured alone)",
    room: 'bench/',
    applies: (p) => p.startsWith('bench/') && !isTest(p),
    forbidden: (s) =>
      (under(s, 'server/runtime') && !RUNTIME_BARRELS.has(s.target)) ||
      (under(s, 'server/dashboard') && !DASHBOARD_DOOR.has(s.target) && !BENCH_MEASURES_ALONE.has(s.target)),
  },
  {
    // The Go bridge is a peer on the wire; its Go types are generated from shared/protocol (go/protocol).
    title:
      'no TypeScript imports go/: the TS side reaches the Go bridge only over the wire its protocol is generated from',
    room: 'go/',
    applies: () => true,
    forbidden: (s) => !isPackage(s) && under(s, 'go'),
  },
  {
    title:
      'server/testlab imports no test code, web, demos or the composition root, and the runtime only through its front door',
    room: 'server/testlab/',
    applies: (p) => p.startsWith('server/testlab/') && !isTest(p),
    forbidden: (s) => under(s, ...NOT_PRODUCT) || (under(s, 'server/runtime') && !RUNTIME_FRONT_DOOR.has(s.target)),
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
