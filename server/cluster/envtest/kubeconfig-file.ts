// The admin kubeconfig for a control plane, shaped like the one envtest writes (pkg/envtest/server.go and
// controlplane/kubectl.go): cluster, user and context all named "envtest", credentials embedded as data so the
// file stays valid after the PEM files move.

export interface KubeconfigInput {
  server: string;
  caPem: string;
  certPem: string;
  keyPem: string;
  /** Default 'envtest'. */
  name?: string;
}

const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

export function renderKubeconfig(input: KubeconfigInput): string {
  const name = input.name ?? 'envtest';
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${name}`,
    '  cluster:',
    `    server: ${input.server}`,
    `    certificate-authority-data: ${b64(input.caPem)}`,
    'users:',
    `- name: ${name}`,
    '  user:',
    `    client-certificate-data: ${b64(input.certPem)}`,
    `    client-key-data: ${b64(input.keyPem)}`,
    'contexts:',
    `- name: ${name}`,
    '  context:',
    `    cluster: ${name}`,
    `    user: ${name}`,
    `current-context: ${name}`,
    '',
  ].join('\n');
}
