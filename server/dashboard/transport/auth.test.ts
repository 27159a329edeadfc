import { describe, expect, it } from 'vitest';
import { isLoopback, originAllowed, resolveAuth, tokenFromRequest, tokenMatches } from './auth';

describe('auth policy', () => {
  it('needs no token on loopback and generates one elsewhere', () => {
    for (const h of ['127.0.0.1', '127.0.0.2', 'localhost', '::1']) expect(isLoopback(h)).toBe(true);
    for (const h of ['0.0.0.0', '192.168.1.4', '::', 'example.com']) expect(isLoopback(h)).toBe(false);
    expect(resolveAuth()).toMatchObject({ host: '127.0.0.1', token: undefined, generated: false });
    const open = resolveAuth({ host: '0.0.0.0' });
    expect(open.generated).toBe(true);
    expect(open.token?.length).toBeGreaterThanOrEqual(32);
    expect(resolveAuth({ host: '0.0.0.0', token: 'given' })).toMatchObject({ token: 'given', generated: false });
    expect(() => resolveAuth({ token: '' })).toThrow(/must not be empty/);
  });

  it('compares tokens exactly and reads them from a bearer header or the query', () => {
    const p = resolveAuth({ token: 'abc' });
    expect(tokenMatches(p, 'abc')).toBe(true);
    expect(tokenMatches(p, 'abcd')).toBe(false);
    expect(tokenMatches(p, undefined)).toBe(false);
    expect(tokenMatches(resolveAuth(), undefined)).toBe(true);
    expect(tokenFromRequest({ authorization: 'Bearer abc' }, '/api/view')).toBe('abc');
    expect(tokenFromRequest({}, '/api/view?token=xyz')).toBe('xyz');
    expect(tokenFromRequest({}, '/api/view')).toBeUndefined();
  });

  it('allows no Origin, the same host, and listed origins only', () => {
    const p = resolveAuth({ allowedOrigins: ['http://localhost:5173'] });
    expect(originAllowed(p, undefined, '127.0.0.1:7070')).toBe(true);
    expect(originAllowed(p, 'http://127.0.0.1:7070', '127.0.0.1:7070')).toBe(true);
    expect(originAllowed(p, 'http://localhost:5173', '127.0.0.1:7070')).toBe(true);
    expect(originAllowed(p, 'http://evil.example', '127.0.0.1:7070')).toBe(false);
    expect(originAllowed(p, 'http://127.0.0.1:7071', '127.0.0.1:7070')).toBe(false);
    expect(originAllowed(p, 'null', '127.0.0.1:7070')).toBe(false);
  });
});
