// `controller-scope test` as CI runs it: the real bin on an example with one plan, --json and --junit.
// A finding exits 1 and says how to run it again; the twin exits 0.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LabReport } from '../../server/testlab/lab';

const ROOT = resolve(import.meta.dirname, '..', '..');

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [join(ROOT, 'bin', 'controller-scope.mjs'), 'test', ...args],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => done({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('controller-scope test on the command line', () => {
  it('exits 1 on a finding, with the JSON report and JUnit XML; the twin exits 0', { timeout: 240_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'testlab-cli-'));
    const junit = join(dir, 'junit.xml');
    const plan = 'crash@write:5';
    const buggy = await cli(['examples/buggy/finalizer/buggy.ts', '--plan', plan, '--json', '--junit', junit]);
    expect(buggy.code, buggy.stderr).toBe(1);
    const report = JSON.parse(buggy.stdout) as LabReport;
    expect(report.findings.map((f) => [f.plan, f.command])).toEqual([
      [plan, `controller-scope test examples/buggy/finalizer/buggy.ts --seed 1 --plan '${plan}'`],
    ]);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<testsuites name="controller-scope test" tests="3" failures="1"/);
    expect(xml).toMatch(
      /<testcase classname="crash" name="crash@write:5" time="[\d.]+">\s*<failure message="finalizer-released/,
    );

    const twin = await cli(['examples/buggy/finalizer/correct.ts', '--plan', plan]);
    expect(twin.code, twin.stdout + twin.stderr).toBe(0);
    expect(twin.stdout).toMatch(/no findings: every run reached the reference end state/);
  });

  it('refuses a plan it cannot read as a usage error (exit 2)', { timeout: 60_000 }, async () => {
    const r = await cli(['examples/buggy/finalizer/buggy.ts', '--plan', 'crash@nowhere']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/plan 'crash@nowhere': .*expected e\.g\. crash@write:3/);
  });
});
