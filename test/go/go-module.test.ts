// The Go bridge module's own tests, run as part of npm test: against the oldest controller-runtime it
// supports (what go/go.mod requires) and against the newest served (go/compat/latest pins it).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, go, goBinary } from './support/go-tool';

describe.skipIf(!goBinary())('Go bridge module', () => {
  it('passes go vet and go test ./... with controller-runtime v0.23', { timeout: 900_000 }, async () => {
    const dir = join(REPO, 'go');
    expect(await go(dir, ['list', '-m', 'sigs.k8s.io/controller-runtime'])).toMatch(/ v0\.23\./);
    await go(dir, ['vet', './...']);
    const out = await go(dir, ['test', './...']);
    expect(out).toMatch(/^ok\s+github\.com\/controller-scope\/controller-scope\/go\s/m);
  });

  it('passes its tests with the newest controller-runtime served (v0.25)', { timeout: 900_000 }, async () => {
    const dir = join(REPO, 'go', 'compat', 'latest');
    expect(await go(dir, ['list', '-m', 'sigs.k8s.io/controller-runtime'])).toMatch(/ v0\.25\./);
    const out = await go(dir, ['test', 'github.com/controller-scope/controller-scope/go']);
    expect(out).toMatch(/^ok\s+github\.com\/controller-scope\/controller-scope\/go\s/m);
  });
});
