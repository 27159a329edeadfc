// deploy/Containerfile cannot be built in CI (no container engine), so its shape is held to the repository:
// every COPY source exists and passes the ignore file, the runtime stage carries exactly the directories the
// npm package ships (package.json "files") and nothing is fetched but through npm, and the Deployment runs
// the image's entry point with flags the CLI knows.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadAllYaml } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { parseCli } from '../../server/cli-options';

const ROOT = resolve(import.meta.dirname, '../..');
const containerfile = readFileSync(join(ROOT, 'deploy/Containerfile'), 'utf8');
const ignore = readFileSync(join(ROOT, 'deploy/Containerfile.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

interface Stage {
  from: string;
  copies: { from?: string; sources: string[]; dest: string }[];
  runs: string[];
}

function stages(text: string): Stage[] {
  const out: Stage[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('FROM ')) out.push({ from: line.split(/\s+/)[1] ?? '', copies: [], runs: [] });
    const stage = out[out.length - 1];
    if (!stage) continue;
    if (line.startsWith('RUN ')) stage.runs.push(line.slice(4));
    if (line.startsWith('COPY ')) {
      const words = line.split(/\s+/).slice(1);
      const flag = words[0]?.startsWith('--from=') ? words.shift() : undefined;
      const dest = words.pop() ?? '';
      stage.copies.push({ ...(flag ? { from: flag.slice('--from='.length) } : {}), sources: words, dest });
    }
  }
  return out;
}

/** The context after the ignore file: everything excluded ("*"), then the "!" entries let back in. */
const allowedByIgnore = (path: string): boolean =>
  ignore.some((p) => p.startsWith('!') && p.slice(1).replace(/\/$/, '') === path.replace(/\/$/, ''));

describe('deploy/Containerfile', () => {
  const [build, runtime] = stages(containerfile);

  it('builds from the official node image in two stages, fetching only through npm', () => {
    expect(build?.from).toMatch(/^docker\.io\/library\/node:\d+/);
    expect(runtime?.from).toBe(build?.from);
    for (const run of [...(build?.runs ?? []), ...(runtime?.runs ?? [])]) {
      expect(run).toMatch(/^npm (install|run build)\b/);
      expect(run).not.toMatch(/curl|wget|https?:/);
    }
  });

  it('copies only what exists in the repository and passes the ignore file', () => {
    for (const c of [...(build?.copies ?? []), ...(runtime?.copies ?? [])].filter((c) => !c.from)) {
      for (const src of c.sources) {
        expect(existsSync(join(ROOT, src)), src).toBe(true);
        expect(allowedByIgnore(src), `${src} is let into the build context`).toBe(true);
      }
    }
  });

  it("carries what the npm package ships, so the image runs what a user's npm install runs", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      files: string[];
      bin: Record<string, string>;
    };
    const shippedDirs = pkg.files.filter((f) => f.endsWith('/') && !f.startsWith('!')).map((f) => f.replace(/\/$/, ''));
    const copied = (runtime?.copies ?? []).flatMap((c) =>
      c.from ? [c.dest.replace(/^\.\//, '').replace(/\/$/, '')] : c.sources.filter((s) => !s.startsWith('package')),
    );
    expect(copied.sort()).toEqual(shippedDirs.sort());
    expect(containerfile).toContain(`ENTRYPOINT ["node", "${pkg.bin['controller-scope']}"]`);
  });

  it("the Deployment's args and the image's default command are flags the CLI accepts", () => {
    const deployment = (
      loadAllYaml(readFileSync(join(ROOT, 'deploy/deployment.yaml'), 'utf8')) as {
        spec: { template: { spec: { containers: { args: string[] }[] } } };
      }[]
    )[0];
    const args = deployment?.spec.template.spec.containers[0]?.args ?? [];
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(containerfile)?.[1] ?? '[]') as string[];
    for (const argv of [args, cmd]) {
      // The token file exists only in the pod: check the rest with an inline token of the same shape.
      const i = argv.indexOf('--auth-token-file');
      expect(i, argv.join(' ')).toBeGreaterThanOrEqual(0);
      const local = [...argv.slice(0, i), '--auth-token', 'x'.repeat(24), ...argv.slice(i + 2)];
      const o = parseCli(local);
      expect(o).toMatchObject({ command: 'dashboard', host: '0.0.0.0', allowWrites: false });
      if (o.command === 'dashboard') expect(o.cluster).toMatchObject({ mode: 'kubeconfig' });
    }
  });
});
