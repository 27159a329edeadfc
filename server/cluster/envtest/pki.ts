// Throwaway certificates for one control plane, in the spirit of controller-runtime's
// pkg/internal/testing/certs/tinyca.go and controlplane/auth.go: one CA signs the apiserver's serving
// certificate and the admin client certificate (CN=admin, O=system:masters); a separate key pair signs
// service-account tokens.
//
// Why the openssl CLI: node:crypto makes keys but cannot issue X.509 certificates, and no certificate
// library is a dependency of this project. openssl is part of every machine image we run on; the SA key
// pair needs no certificate, so node:crypto makes that one without a child process.

import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface ControlPlanePki {
  dir: string;
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  adminCert: string;
  adminKey: string;
  saPublicKey: string;
  saPrivateKey: string;
}

export interface GeneratePkiOptions {
  /** Directory to write into (must exist). */
  dir: string;
  /** Default 'openssl' from PATH. */
  openssl?: string;
  /** Certificate lifetime; default 7 days, like envtest's 168h leaves. */
  days?: number;
  /** Extra SANs for the serving cert beyond 127.0.0.1, localhost and the in-cluster names. */
  extraSans?: string[];
  /** Client certificate subject; default CN=admin, O=system:masters. */
  adminUser?: { name: string; groups: string[] };
}

async function openssl(bin: string, args: string[]): Promise<void> {
  try {
    await execFileAsync(bin, args, { timeout: 30_000 });
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`openssl ${args[0]} failed: ${(e.stderr || e.message).trim()}`, { cause: err });
  }
}

const P256 = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

export async function generatePki(options: GeneratePkiOptions): Promise<ControlPlanePki> {
  const { dir } = options;
  const bin = options.openssl ?? 'openssl';
  const days = String(options.days ?? 7);
  const user = options.adminUser ?? { name: 'admin', groups: ['system:masters'] };
  const p = (name: string): string => join(dir, name);
  const pki: ControlPlanePki = {
    dir,
    caCert: p('ca.crt'),
    caKey: p('ca.key'),
    servingCert: p('apiserver.crt'),
    servingKey: p('apiserver.key'),
    adminCert: p('admin.crt'),
    adminKey: p('admin.key'),
    saPublicKey: p('sa.pub'),
    saPrivateKey: p('sa.key'),
  };

  await openssl(bin, [
    'req', '-x509', ...P256, '-keyout', pki.caKey, '-out', pki.caCert, '-days', days,
    '-subj', '/CN=controller-scope-envtest-ca',
    '-addext', 'basicConstraints=critical,CA:TRUE',
    '-addext', 'keyUsage=critical,keyCertSign,cRLSign,digitalSignature',
  ]); // prettier-ignore

  // Clients dial 127.0.0.1 literally; the in-cluster names keep the "kubernetes" Service's address valid.
  const sans = [
    'IP:127.0.0.1',
    'DNS:localhost',
    'IP:10.0.0.1',
    'DNS:kubernetes',
    'DNS:kubernetes.default',
    'DNS:kubernetes.default.svc',
    ...(options.extraSans ?? []),
  ];
  const subject = (cn: string, groups: string[]): string => [...groups.map((g) => `/O=${g}`), `/CN=${cn}`].join('');

  const issue = async (name: string, subj: string, ext: string[], cert: string, key: string): Promise<void> => {
    const csr = p(`${name}.csr`);
    const extFile = p(`${name}.ext`);
    await writeFile(extFile, ext.join('\n') + '\n');
    await openssl(bin, ['req', '-new', ...P256, '-keyout', key, '-out', csr, '-subj', subj]);
    await openssl(bin, [
      'x509', '-req', '-in', csr, '-CA', pki.caCert, '-CAkey', pki.caKey, '-CAcreateserial',
      '-days', days, '-sha256', '-extfile', extFile, '-out', cert,
    ]); // prettier-ignore
  };

  const leafExt = ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature,keyEncipherment'];
  await issue(
    'apiserver',
    '/CN=kube-apiserver',
    [...leafExt, 'extendedKeyUsage=serverAuth', `subjectAltName=${sans.join(',')}`],
    pki.servingCert,
    pki.servingKey,
  );
  await issue(
    'admin',
    subject(user.name, user.groups),
    [...leafExt, 'extendedKeyUsage=clientAuth'],
    pki.adminCert,
    pki.adminKey,
  );

  const sa = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  await writeFile(pki.saPrivateKey, sa.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  await writeFile(pki.saPublicKey, sa.publicKey.export({ type: 'spki', format: 'pem' }));
  return pki;
}
