// The test's result for people: what was run, how each class fared, and every finding with its point,
// first problem, differences and the command that runs it again.
import { describeDifference } from './diff';
import type { Finding, LabReport, RunVerdict } from './lab';
import { CLASSES, parsePlan, type PerturbationClass } from './plan';

const MAX_DIFFERENCES_SHOWN = 8;

export function classOf(v: RunVerdict): PerturbationClass | 'reference' {
  if (v.index <= 0) return 'reference';
  try {
    return parsePlan(v.plan).perturbation.class;
  } catch {
    return 'reference';
  }
}

export function seconds(ms: number): string {
  return ms >= 60_000
    ? `${Math.floor(ms / 60_000)}m${Math.round((ms % 60_000) / 1000)}s`
    : `${(ms / 1000).toFixed(1)}s`;
}

/** One line per finished run, as the test goes. */
export function progressLine(v: RunVerdict, total: number): string {
  const which = v.index <= 0 ? 'reference' : `run ${v.index}/${total}`;
  const verdict = v.ok ? 'ok' : 'FINDING';
  const idle = v.index > 0 && !v.fired ? ' (point not reached)' : '';
  return `  ${which.padEnd(14)} ${v.plan.padEnd(60)} ${verdict} ${seconds(v.durationMs)}${idle}`;
}

export function summary(r: LabReport): string {
  const lines = [
    `controller-scope test: ${r.files.join(' ')}`,
    `scenario: ${r.scenario}; seed ${r.seed}`,
    `reference: ${r.reference.writes} writes to ${r.reference.written.join(', ') || 'nothing'}; ` +
      `watches ${r.reference.watched.join(', ') || 'nothing'}; ${seconds(r.reference.durationMs)}; ` +
      `masked as nondeterministic: ${r.reference.masks.join(', ') || 'nothing'}`,
  ];
  const perturbed = r.runs.filter((v) => v.index > 0);
  lines.push(
    `ran ${perturbed.length} of ${r.candidates} plans in ${seconds(r.durationMs)} (stopped: ${stopReason(r.stoppedBy)})`,
  );
  for (const c of CLASSES) {
    const runs = perturbed.filter((v) => classOf(v) === c);
    if (runs.length === 0) continue;
    const found = runs.filter((v) => !v.ok).length;
    const reached = runs.filter((v) => v.fired).length;
    lines.push(`  ${c.padEnd(11)} ${runs.length} runs (${reached} reached their point), ${found} findings`);
  }
  r.findings.forEach((f, i) => lines.push('', ...findingLines(f, i + 1)));
  lines.push(
    '',
    r.findings.length === 0
      ? `no findings: every run reached the reference end state and held every invariant`
      : `${r.findings.length} finding${r.findings.length === 1 ? '' : 's'}`,
  );
  return `${lines.join('\n')}\n`;
}

function stopReason(s: LabReport['stoppedBy']): string {
  return s === 'plans' ? 'every plan ran' : s === 'runs' ? '--runs reached' : '--time reached';
}

function findingLines(f: Finding, n: number): string[] {
  const out = [
    `FINDING ${n}: ${f.plan}  (run ${f.run}, ${f.foundAfterS.toFixed(1)} s into the test)`,
    `  point:   ${f.point}`,
    `  problem: ${f.problem}`,
  ];
  for (const v of f.violations.slice(1)) out.push(`  also:    ${v.invariant}: ${v.detail}`);
  if (f.differences.length > 0) {
    out.push('  end state, compared with the reference:');
    for (const d of f.differences.slice(0, MAX_DIFFERENCES_SHOWN)) out.push(`    ${describeDifference(d)}`);
    if (f.differences.length > MAX_DIFFERENCES_SHOWN)
      out.push(`    … ${f.differences.length - MAX_DIFFERENCES_SHOWN} more (--json lists them all)`);
  }
  out.push(`  again:   ${f.command}`);
  return out;
}
