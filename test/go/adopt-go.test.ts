// `controller-scope adopt-go DIR` as a user runs it, on copies of the rewriter's fixtures (a fresh kubebuilder
// layout whose main.go assigns mgrOptions.Cache after the literal, and the multigroup shape with several
// controllers, webhooks off and a namespaced cache): the project is rewritten, go.mod points at this
// checkout's module, and `go build ./...` and `go vet ./...` pass; a second run changes nothing; a project
// it cannot be sure of is refused with file and line, and left as it was.
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, go, goBinary } from './support/go-tool';
import { SCOPE_MODULE as MODULE, adoptGo, copyFixture } from './support/adopt-go';

/** Every file under dir with its content, to tell that a run changed nothing. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

describe.skipIf(!goBinary())('controller-scope adopt-go', () => {
  it.each([
    {
      fixture: 'kubebuilder',
      wrap: 'ctrl.NewManager(ctrl.GetConfigOrDie(), scope.Options(mgrOptions))',
      controllers: 1,
    },
    {
      fixture: 'multigroup',
      wrap: 'ctrl.NewManager(ctrl.GetConfigOrDie(), scope.Options(ctrl.Options{',
      controllers: 3,
    },
  ])(
    'adopts the $fixture fixture: it builds and vets, and a second run changes nothing',
    { timeout: 900_000 },
    async ({ fixture, wrap, controllers }) => {
      const dir = copyFixture(fixture);
      const first = await adoptGo([dir]);
      expect(first.code, first.out).toBe(0);
      expect(first.out).toContain(`+++ b/cmd/main.go`);
      expect(first.out).toContain(`+\tmgr, err := ${wrap}`);
      expect(first.out.match(/^\+.*\.NewControllerManagedBy\(mgr\)/gm)).toHaveLength(controllers);
      expect(first.out).toContain(`+replace ${MODULE} => ${join(REPO, 'go')}`);
      expect(first.out).toMatch(/^Adopted\./m);

      const main = readFileSync(join(dir, 'cmd', 'main.go'), 'utf8');
      expect(main).toContain(wrap);
      expect(main).toContain(`scope "${MODULE}"`);
      expect(await go(dir, ['list', '-m', MODULE])).toContain(`${MODULE} v0.0.0 => ${join(REPO, 'go')}`);
      await go(dir, ['build', './...']);
      await go(dir, ['vet', './...']);

      const before = snapshot(dir);
      const second = await adoptGo([dir]);
      expect(second.code, second.out).toBe(0);
      expect(second.out).toContain('is adopted already: nothing to change');
      expect(snapshot(dir)).toEqual(before);
    },
  );

  it('refuses a project with two managers, naming both, and leaves it as it was', { timeout: 300_000 }, async () => {
    const dir = copyFixture('kubebuilder');
    cpSync(join(dir, 'cmd', 'main.go'), join(dir, 'cmd', 'migrate', 'main.go'), { recursive: true });
    const before = snapshot(dir);
    const { code, out } = await adoptGo([dir]);
    expect(code, out).toBe(1);
    expect(out).toMatch(/cannot adopt this project safely, nothing was changed/);
    expect(out).toMatch(/^ {2}cmd\/main\.go:\d+: ctrl\.NewManager is one of 2 calls that make a manager/m);
    expect(out).toMatch(/^ {2}cmd\/migrate\/main\.go:\d+: ctrl\.NewManager is one of 2 calls/m);
    expect(snapshot(dir)).toEqual(before);
  });

  it('puts every file back when the rewritten project does not build', { timeout: 600_000 }, async () => {
    const dir = copyFixture('kubebuilder');
    const broken = join(dir, 'internal', 'controller', 'broken.go');
    writeFileSync(broken, 'package controller\n\nvar answer int = "forty-two"\n');
    const before = snapshot(dir);
    const { code, out } = await adoptGo([dir]);
    expect(code, out).toBe(1);
    expect(out).toMatch(/go build \.\/\.\.\. \(in .*\) failed/);
    expect(out).toContain('Every file is as it was before adopt-go ran.');
    expect(snapshot(dir)).toEqual(before);
  });

  it('--dry-run prints the diff and writes nothing', { timeout: 300_000 }, async () => {
    const dir = copyFixture('kubebuilder');
    const before = snapshot(dir);
    const { code, out } = await adoptGo(['--dry-run', dir]);
    expect(code, out).toBe(0);
    expect(out).toContain('+\tmgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), scope.Options(mgrOptions))');
    expect(out).toContain(`go mod edit -require=${MODULE}@v0.0.0 -replace=${MODULE}=${join(REPO, 'go')}`);
    expect(snapshot(dir)).toEqual(before);
  });
});
