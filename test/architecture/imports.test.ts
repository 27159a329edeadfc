// The import rules of the house (import-rules.ts; docs/architecture.md says why): the repository keeps every
// rule, and each rule fails on a planted violation, so none of these tests can pass by checking nothing.
import { describe, expect, it } from 'vitest';
import { RULES, importsOf, repoFiles, violations, type SourceFile } from './import-rules';

const files = repoFiles('server', 'shared', 'web', 'bench', 'scripts', 'examples', 'test');

/** Per rule: a file that breaks it and one beside it that keeps it. */
const PLANTED: Record<string, { bad: SourceFile; good: SourceFile }> = {
  'server/runtime imports no transport': {
    bad: { path: 'server/runtime/cache/x.ts', text: "import express from 'express';" },
    good: { path: 'server/runtime/cache/x.ts', text: "import { a } from '../util/clock';" },
  },
  'only server/runtime/client talks to @kubernetes/client-node': {
    bad: { path: 'server/runtime/cache/x.ts', text: "import { KubeConfig } from '@kubernetes/client-node';" },
    good: { path: 'server/runtime/client/x.ts', text: "import { KubeConfig } from '@kubernetes/client-node';" },
  },
  'the runtime imports only types from shared/protocol': {
    bad: {
      path: 'server/runtime/cache/x.ts',
      text: "import { REFLECTOR_TRANSITIONS, type ReflectorState } from '../../../shared/protocol/reflector-machine';",
    },
    good: {
      path: 'server/runtime/cache/x.ts',
      text: "import type { ReflectorState } from '../../../shared/protocol/reflector-machine';\nimport { type A, type B } from '../../../shared/protocol/ids';",
    },
  },
  'shared/ imports no node builtins': {
    bad: { path: 'shared/protocol/x.ts', text: "import { readFileSync } from 'node:fs';" },
    good: { path: 'shared/protocol/x.test.ts', text: "import { it } from 'vitest';" },
  },
  'web/ imports only web/ and shared/': {
    bad: { path: 'web/panels/x.ts', text: "import { Reflector } from '../../server/runtime';" },
    good: { path: 'web/panels/x.ts', text: "import type { RuntimeView } from '../../shared/protocol/view';" },
  },
  'server/dashboard does not reach into server/cluster': {
    bad: { path: 'server/dashboard/x.ts', text: "import { startSandbox } from '../cluster/sandbox/server';" },
    good: { path: 'server/dashboard/x.ts', text: "import { stepPort } from './step-port';" },
  },
  'server/testlab imports no test code': {
    bad: { path: 'server/testlab/x.ts', text: "import { runSeed } from '../../test/truth/harness/run-seed';" },
    good: {
      path: 'server/testlab/x.ts',
      text: "import { SandboxServer } from '../cluster/sandbox';\nimport { newManager } from '../runtime';",
    },
  },
  'only server/otel imports OpenTelemetry': {
    bad: { path: 'server/runtime/controller/x.ts', text: "import { trace } from '@opentelemetry/api';" },
    good: { path: 'server/otel/x.ts', text: "import { trace } from '@opentelemetry/api';" },
  },
  'server/cluster uses the runtime only through its front door': {
    bad: { path: 'server/cluster/sandbox/x.ts', text: "import { realClock } from '../../runtime/util/clock';" },
    good: {
      path: 'server/cluster/sandbox/x.ts',
      text: "import { realClock } from '../../runtime';\nimport { RestConfig } from '../../runtime/client';",
    },
  },
  'server/run uses the runtime only through its front door': {
    bad: { path: 'server/run/x.ts', text: "import { Reflector } from '../runtime/cache/reflector';" },
    good: {
      path: 'server/run/x.ts',
      text: "import type { Client } from '../runtime';\nimport { Worker } from 'node:worker_threads';",
    },
  },
  "server/demo imports only the runtime's front door": {
    bad: { path: 'server/demo/x.ts', text: "import { serveDashboard } from '../dashboard';" },
    good: {
      path: 'server/demo/x.ts',
      text: "import { newControllerManagedBy } from '../runtime';\nimport type { KubeObject } from '../../shared/models/object';",
    },
  },
  'files outside server/dashboard use it only through its front door': {
    bad: { path: 'server/main.ts', text: "import { stepPort } from './dashboard/step-port';" },
    good: { path: 'server/main.ts', text: "import { stepPort } from './dashboard';" },
  },
  'bench/ uses the product through its doors': {
    bad: { path: 'bench/x.ts', text: "import type { Probe } from '../server/runtime/instrumentation/probe';" },
    good: {
      path: 'bench/x.ts',
      text: "import type { Probe } from '../server/runtime';\nimport { DeltaFIFO } from '../server/runtime/cache';\nimport { Recorder } from '../server/dashboard';",
    },
  },
  'no TypeScript imports go/': {
    bad: { path: 'bench/x.ts', text: "import { Kinds } from '../go/protocol/kinds';" },
    good: { path: 'bench/x.ts', text: "import type { RuntimeEvent } from '../shared/protocol/events';" },
  },
};

describe('import rules', () => {
  for (const rule of RULES) {
    it(rule.title, () => {
      expect(violations(files, rule)).toEqual([]);
    });
  }

  it('every rule catches a planted violation and passes its compliant neighbour', () => {
    for (const rule of RULES) {
      const plant = Object.entries(PLANTED).find(([prefix]) => rule.title.startsWith(prefix))?.[1];
      expect(plant, `no planted case for "${rule.title}"`).toBeDefined();
      if (!plant) continue;
      expect(violations([plant.bad], rule), rule.title).toHaveLength(1);
      expect(violations([plant.good], rule), rule.title).toEqual([]);
    }
  });

  it('the scanner sees the repository at all', () => {
    expect(files.length).toBeGreaterThan(100);
    const sites = importsOf({ path: 'test/x.ts', text: "import type { A } from './a';\nimport './side-effect';" });
    expect(sites.map((s) => [s.spec, s.typeOnly])).toEqual([
      ['./a', true],
      ['./side-effect', false],
    ]);
  });
});
