// Runs the openssl CLI, hence the integration project.
import { execFileSync } from 'node:child_process';
import { X509Certificate, createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePki } from './pki';
import type { ControlPlanePki } from './pki';

let dir: string;
let pki: ControlPlanePki;
const cert = (p: string): X509Certificate => new X509Certificate(readFileSync(p));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'envtest-pki-test-'));
  pki = await generatePki({ dir });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('generatePki', () => {
  it('makes a CA that signs both leaves', () => {
    const ca = cert(pki.caCert);
    expect(ca.ca).toBe(true);
    for (const leaf of [pki.servingCert, pki.adminCert]) {
      const c = cert(leaf);
      expect(c.ca).toBe(false);
      expect(c.checkIssued(ca)).toBe(true);
      expect(c.verify(ca.publicKey)).toBe(true);
    }
    execFileSync('openssl', ['verify', '-CAfile', pki.caCert, pki.servingCert, pki.adminCert]);
  });

  it('gives the serving cert the loopback and in-cluster names clients dial', () => {
    const c = cert(pki.servingCert);
    expect(c.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(c.checkHost('localhost')).toBe('localhost');
    expect(c.checkHost('kubernetes.default.svc')).toBe('kubernetes.default.svc');
    expect(c.keyUsage).toContain('1.3.6.1.5.5.7.3.1');
  });

  it('makes the admin a member of system:masters, for client auth only', () => {
    const c = cert(pki.adminCert);
    expect(c.subject).toContain('CN=admin');
    expect(c.subject).toContain('O=system:masters');
    expect(c.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
  });

  it('writes a matching service-account key pair', () => {
    const pub = createPublicKey(readFileSync(pki.saPublicKey));
    const fromPriv = createPublicKey(readFileSync(pki.saPrivateKey));
    expect(pub.export({ type: 'spki', format: 'pem' })).toBe(fromPriv.export({ type: 'spki', format: 'pem' }));
  });

  it('reports openssl failures with its stderr', async () => {
    await expect(generatePki({ dir: join(dir, 'missing-subdir') })).rejects.toThrow(/openssl req failed/);
  });
});
