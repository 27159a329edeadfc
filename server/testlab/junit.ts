// JUnit XML for CI: one testsuite, one testcase per run (the reference runs included), a failure per
// finding carrying its problem and the command that runs it again.
import type { LabReport, RunVerdict } from './lab';
import { classOf } from './report';
import { describeDifference } from './diff';

const escape = (s: string): string =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);

export function junitXml(r: LabReport): string {
  const failures = r.runs.filter((v) => !v.ok).length;
  const cases = r.runs.map((v) => testcase(v, r));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="controller-scope test" tests="${r.runs.length}" failures="${failures}" time="${(r.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="${escape(r.files.join(' '))}" tests="${r.runs.length}" failures="${failures}" time="${(r.durationMs / 1000).toFixed(3)}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function testcase(v: RunVerdict, r: LabReport): string {
  const head = `    <testcase classname="${escape(classOf(v))}" name="${escape(v.plan)}" time="${(v.durationMs / 1000).toFixed(3)}"`;
  if (v.ok) return `${head}/>`;
  const f = r.findings.find((x) => x.run === v.index);
  const body = [
    ...(v.error ? [`the run failed: ${v.error}`] : []),
    ...v.violations.map((x) => `${x.invariant}: ${x.detail}`),
    ...v.differences.map(describeDifference),
    ...(f ? [`point: ${f.point}`, `again: ${f.command}`] : []),
  ].join('\n');
  return `${head}>\n      <failure message="${escape(f?.problem ?? 'finding')}">${escape(body)}</failure>\n    </testcase>`;
}
