// `controller-scope test FILE…`: loads the user's modules as `run` does (each life of the controller
// imports them afresh), reads the scenario, runs the lab, and prints the summary, --json or JUnit XML.
// Exit code 1 when there is a finding.
import { writeFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { Recorder, RecordingWriter } from '../dashboard';
import { setReallyCrash } from '../runtime';
import { importGeneration } from '../run/module-importer';
import { findSetup, noSetupError, type SetupFunction } from '../run/user-module';
import type { ControllerTarget } from './incarnation';
import { junitXml } from './junit';
import { runLab, type LabReport } from './lab';
import { parsePlan } from './plan';
import { progressLine, summary } from './report';
import { parseScenario, readScenarioFile, type PartialScenario } from './scenario-file';

export interface TestCommand {
  command: 'test';
  files: string[];
  scenario?: string;
  seed: number;
  runs?: number;
  timeMs: number;
  json: boolean;
  junit?: string;
  /** --plan, repeatable: run exactly these. */
  plans: string[];
  record?: string;
  settleTimeoutMs: number;
}

export const DEFAULT_TIME_MS = 4 * 60_000;
export const DEFAULT_SETTLE_TIMEOUT_MS = 15_000;
const QUIET_MS = 150;

/** The modules at `files` (absolute paths), named as the user gave them (`shown`) in reports. */
export function moduleTarget(files: string[], shown: string[] = files): ControllerTarget {
  return {
    files: shown,
    async load(tag) {
      const setups: SetupFunction[] = [];
      for (const [i, file] of files.entries()) {
        const exports = await importGeneration(file, `${i}.${tag}`);
        const found = findSetup(exports);
        if (!found) throw new Error(noSetupError(file, exports).message);
        setups.push(found.setup);
      }
      return setups;
    },
  };
}

/** --scenario FILE, else the first module's `scenario` export, else none (the For kind's default). */
async function scenarioOf(o: TestCommand): Promise<PartialScenario | undefined> {
  if (o.scenario) return readScenarioFile(o.scenario, (f) => importGeneration(f, 'scenario'));
  for (const file of o.files) {
    const exports = await importGeneration(file, 'scenario');
    const name = relative(process.cwd(), file) || file;
    if (exports['scenario'] !== undefined) return parseScenario(exports['scenario'], `${name} (its scenario export)`);
  }
  return undefined;
}

export async function runTestCommand(
  o: TestCommand,
  write: (s: string) => void = (s) => process.stdout.write(s),
): Promise<number> {
  // A handler or predicate that throws is a finding to report, not a reason to end the test.
  setReallyCrash(false);
  const files = o.files.map((f) => resolve(f));
  const shown = o.files.map((f) => relative(process.cwd(), resolve(f)) || f);
  const command = ['controller-scope test', ...shown, ...(o.scenario ? ['--scenario', o.scenario] : [])].join(' ');
  const plans = o.plans.map(parsePlan);
  const recorder = o.record ? new Recorder({ trustedEmits: true }) : undefined;
  const writer =
    recorder && o.record
      ? new RecordingWriter({
          recorder,
          file: o.record,
          cluster: { kind: 'sandbox', name: 'test lab', writable: true },
          controllers: [],
        })
      : undefined;
  let report: LabReport;
  try {
    report = await runLab({
      target: moduleTarget(files, shown),
      ...(await scenarioOf({ ...o, files }).then((s) => (s ? { scenario: s } : {}))),
      seed: o.seed,
      ...(o.runs !== undefined ? { runs: o.runs } : {}),
      timeMs: o.timeMs,
      ...(plans.length ? { plans } : {}),
      settleTimeoutMs: o.settleTimeoutMs,
      quietMs: QUIET_MS,
      command,
      ...(recorder ? { probe: recorder } : {}),
      onRun: o.json ? undefined : (v, total) => write(`${progressLine(v, total)}\n`),
    });
  } finally {
    await writer?.close();
  }
  write(o.json ? `${JSON.stringify(report, null, 2)}\n` : summary(report));
  if (o.junit) await writeFile(o.junit, junitXml(report));
  if (o.record && !o.json)
    write(`recording of the perturbed runs: ${o.record} (controller-scope --replay ${o.record})\n`);
  return report.findings.length > 0 ? 1 : 0;
}
