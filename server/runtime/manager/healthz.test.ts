// Scenarios from controller-runtime pkg/healthz/healthz_test.go.
import { describe, expect, it } from 'vitest';
import { HealthzHandler, type Checker } from './healthz';

const ok: Checker = () => undefined;
const bad: Checker = () => {
  throw new Error('blech');
};
const h = (checks: Record<string, Checker>): HealthzHandler => new HealthzHandler(new Map(Object.entries(checks)));

describe('healthz', () => {
  it('is 200 "ok" when every check passes', async () => {
    expect(await h({ ok1: ok, ok2: ok }).handle('')).toMatchObject({ status: 200, body: 'ok' });
  });
  it('is 500 with the verbose listing when a check fails', async () => {
    const r = await h({ ok1: ok, bad1: bad }).handle('');
    expect(r.status).toBe(500);
    expect(r.body).toBe('[-]bad1 failed: reason withheld\n[+]ok1 ok\nhealthz check failed\n');
    expect(r.contentType).toBe('text/plain; charset=utf-8');
  });
  it('honours exclude, including names that do not exist', async () => {
    expect((await h({ ok1: ok, bad1: bad }).handle('', new URLSearchParams('exclude=bad1'))).status).toBe(200);
    const r = await h({ ok1: ok }).handle('', new URLSearchParams('exclude=nope&verbose'));
    expect(r.status).toBe(200);
    expect(r.body).toContain('warn: some health checks cannot be excluded: no matches for "nope"');
  });
  it('lists checks when verbose', async () => {
    expect((await h({ ok1: ok, ok2: ok }).handle('', new URLSearchParams('verbose'))).body).toBe(
      '[+]ok1 ok\n[+]ok2 ok\nhealthz check passed\n',
    );
    expect((await h({}).handle('/', new URLSearchParams('verbose'))).body).toBe('[+]ping ok\nhealthz check passed\n');
  });
  it('serves each check at its own path', async () => {
    const handler = h({ okcheck: ok, failcheck: bad });
    expect(await handler.handle('/okcheck')).toMatchObject({ status: 200, body: 'ok' });
    expect(await handler.handle('/failcheck')).toMatchObject({ status: 500, body: 'internal server error: blech\n' });
    expect((await handler.handle('/nothing')).status).toBe(404);
    expect((await h({}).handle('/ping')).status).toBe(200);
  });
});
