// The event union is exhaustive in the reducer: compiled as it is, shared/protocol type-checks; with a
// planted event kind that no reducer case handles (in a known block, or in a new one), it does not.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './import-rules';

const options: ts.CompilerOptions = {
  ...(ts.getParsedCommandLineOfConfigFile(
    join(ROOT, 'tsconfig.web.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  )?.options ?? {}),
  noEmit: true,
};

/** Type errors in shared/protocol when `edit` rewrites one file's text, as "file: message". */
function errorsWith(edit?: { file: string; from: string; to: string }): string[] {
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  host.readFile = (name) => {
    if (edit && relative(ROOT, name) === edit.file) {
      const text = readFileSync(name, 'utf8');
      expect(text, `planting needs "${edit.from}" in ${edit.file}`).toContain(edit.from);
      return text.replace(edit.from, edit.to);
    }
    return read(name);
  };
  const program = ts.createProgram([join(ROOT, 'shared/protocol/reduce.ts')], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && relative(ROOT, d.file.fileName).startsWith('shared/protocol/'))
    .map((d) => `${relative(ROOT, d.file?.fileName ?? '')}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

// Each case compiles shared/protocol afresh: seconds on a busy 2-core machine, so more than the default 5 s.
describe('the reducer handles every event kind (checked by the compiler)', { timeout: 60_000 }, () => {
  it('type-checks as it is', () => {
    expect(errorsWith()).toEqual([]);
  });

  it('fails on a planted kind in a known block that no case handles', () => {
    const errors = errorsWith({
      file: 'shared/protocol/events-cache.ts',
      from: '| InformerLifecycleEvent;',
      to: "| InformerLifecycleEvent | { kind: 'reflector.planted'; informer: string };",
    });
    expect(errors.some((e) => e.startsWith('shared/protocol/reduce-informer.ts'))).toBe(true);
  });

  it('fails on a planted kind in a block the router does not send anywhere', () => {
    const errors = errorsWith({
      file: 'shared/protocol/events-controller.ts',
      from: '| LeaderElectionEvent;',
      to: "| LeaderElectionEvent | { kind: 'webhook.call'; controller: string };",
    });
    expect(errors.some((e) => e.startsWith('shared/protocol/reduce-exhaustive.ts'))).toBe(true);
    expect(errors.some((e) => e.startsWith('shared/protocol/reduce-controller.ts'))).toBe(true);
  });
});
