// A one-context kubeconfig as YAML, the file the sandbox and the envtest control plane hand to kubectl and to
// controllers. One writer, so both files keep the shape clientcmd and client-node read.

export interface KubeconfigSpec {
  /** Names the cluster, the user and the context alike. */
  name: string;
  server: string;
  /** The cluster's fields besides server (certificate-authority-data, insecure-skip-tls-verify). */
  cluster?: Readonly<Record<string, string | boolean>>;
  /** The user's fields (token, or client-certificate-data and client-key-data); none: an anonymous user. */
  user?: Readonly<Record<string, string>>;
  /** The context's namespace; none leaves the client's default. */
  namespace?: string;
}

const fields = (o: Readonly<Record<string, string | boolean>>): string[] =>
  Object.entries(o).map(([k, v]) => `    ${k}: ${v}`);

export function kubeconfigYaml(k: KubeconfigSpec): string {
  const user = fields(k.user ?? {});
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${k.name}`,
    '  cluster:',
    `    server: ${k.server}`,
    ...fields(k.cluster ?? {}),
    'users:',
    `- name: ${k.name}`,
    ...(user.length > 0 ? ['  user:', ...user] : ['  user: {}']),
    'contexts:',
    `- name: ${k.name}`,
    '  context:',
    `    cluster: ${k.name}`,
    `    user: ${k.name}`,
    ...(k.namespace ? [`    namespace: ${k.namespace}`] : []),
    `current-context: ${k.name}`,
    '',
  ].join('\n');
}
