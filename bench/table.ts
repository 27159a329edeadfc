// Renders figures as plain-text tables: ours beside client-go where a Go peer ran the same workload, and
// our-only figures (the probe-cost matrix) below.
import type { Figure } from './harness';
import { BUSY_WALL_OVER_CPU, type InProcessTarget } from './inproc-targets';

const ops = (n: number): string =>
  n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(0);
const ms = (n: number): string => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
const heap = (n: number | undefined): string => (n === undefined ? '–' : n.toFixed(2));

export function render(header: string[], rows: string[][], rightAligned: Set<number>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    `| ${cells.map((c, i) => (rightAligned.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (rightAligned.has(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/**
 * Rows paired by bench label; ours/go is our wall-clock throughput over client-go's (1.00 = same speed) and
 * go/ours CPU is client-go's CPU time over ours (above 1 = we spend less CPU). The 1-core column is client-go
 * run with GOMAXPROCS=1, matching our one JavaScript thread.
 */
export function sideBySide(ours: Figure[], peers: Figure[], peersOneCore: Figure[] = []): string {
  const byLabel = new Map(peers.map((p) => [p.bench, p]));
  const oneCore = new Map(peersOneCore.map((p) => [p.bench, p]));
  const rows = ours
    .filter((o) => byLabel.has(o.bench))
    .map((o) => {
      const g = byLabel.get(o.bench)!;
      const g1 = oneCore.get(o.bench);
      return [
        o.bench,
        ops(o.ops),
        ops(o.opsPerSec),
        ops(g.opsPerSec),
        g1 ? ops(g1.opsPerSec) : '–',
        `${(o.opsPerSec / g.opsPerSec).toFixed(2)}×`,
        ms(o.ms),
        ms(g.ms),
        o.cpuMs === undefined ? '–' : ms(o.cpuMs),
        g.cpuMs === undefined ? '–' : ms(g.cpuMs),
        o.cpuMs === undefined || g.cpuMs === undefined ? '–' : `${(g.cpuMs / o.cpuMs).toFixed(2)}×`,
        heap(o.heapMB),
        heap(g.heapMB),
        o.note ?? '',
      ];
    });
  return render(
    [
      'workload',
      'ops',
      'ours ops/s',
      'client-go ops/s',
      'go 1-core ops/s',
      'ours/go',
      'ours ms',
      'go ms',
      'ours CPU ms',
      'go CPU ms',
      'go/ours CPU',
      'ours heap MB',
      'go heap MB',
      'note',
    ],
    rows,
    new Set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
  );
}

export function oursOnly(figures: Figure[]): string {
  return render(
    ['workload', 'ops', 'ops/s', 'ms', 'CPU ms', 'heap MB', 'note'],
    figures.map((f) => [
      f.bench,
      ops(f.ops),
      ops(f.opsPerSec),
      ms(f.ms),
      f.cpuMs === undefined ? '–' : ms(f.cpuMs),
      heap(f.heapMB),
      f.note ?? '',
    ]),
    new Set([1, 2, 3, 4, 5]),
  );
}

/**
 * The in-process targets as a table: measured throughput ratio, the goal, met / not met, the CPU ratio, and
 * wall over CPU time on each side, with a warning under it when the cores were too busy for wall time to mean
 * much.
 */
export function inProcessTargetTable(targets: readonly InProcessTarget[]): string {
  const r = (x: number | undefined): string => (x === undefined ? '–' : x.toFixed(2));
  const table = render(
    ['target', 'measured', 'goal', 'verdict', 'go/ours CPU', 'wall/CPU ours, go'],
    targets.map((t) => [
      t.what,
      t.value === undefined ? '–' : `${t.value.toFixed(2)}×`,
      t.goal,
      t.met === undefined ? 'not measured' : t.met ? 'met' : 'NOT MET',
      t.cpuRatio === undefined ? '–' : `${t.cpuRatio.toFixed(2)}×`,
      `${r(t.wallOverCpu[0])}, ${r(t.wallOverCpu[1])}`,
    ]),
    new Set([1, 4, 5]),
  );
  const busy = targets.some((t) => t.wallOverCpu.some((x) => x !== undefined && x > BUSY_WALL_OVER_CPU));
  return busy
    ? `${table}

Wall time ran well above CPU time (other work held the cores): the verdicts follow ops/s as the ` +
        'targets are written, but the CPU ratio is the steadier reading of this run.'
    : table;
}
