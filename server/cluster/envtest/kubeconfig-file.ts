// The admin kubeconfig for a control plane, shaped like the one envtest writes (pkg/envtest/server.go and
// controlplane/kubectl.go): cluster, user and context all named "envtest", credentials embedded as data so the
// file stays valid after the PEM files move.
import { kubeconfigYaml } from '../kubeconfig-yaml';

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
  return kubeconfigYaml({
    name: input.name ?? 'envtest',
    server: input.server,
    cluster: { 'certificate-authority-data': b64(input.caPem) },
    user: { 'client-certificate-data': b64(input.certPem), 'client-key-data': b64(input.keyPem) },
  });
}
