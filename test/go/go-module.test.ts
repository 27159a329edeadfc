// The Go bridge module's own tests (`go test ./...` in go/), run as part of npm test.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, go, goBinary } from './support/go-tool';

describe.skipIf(!goBinary())('Go bridge module', () => {
  it('passes go vet and go test ./...', { timeout: 900_000 }, async () => {
    const dir = join(REPO, 'go');
    await go(dir, ['vet', './...']);
    const out = await go(dir, ['test', './...']);
    expect(out).toMatch(/^ok\s+github\.com\/controller-scope\/controller-scope\/go\s/m);
  });
});
