import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kubeconfigYaml } from './kubeconfig-yaml';

const load = (text: string): KubeConfig => {
  const kc = new KubeConfig();
  kc.loadFromString(text);
  return kc;
};

describe('kubeconfigYaml', () => {
  it('writes one context client-node loads: cluster fields, a token user and the namespace', () => {
    const kc = load(
      kubeconfigYaml({
        name: 'sb',
        server: 'http://127.0.0.1:1234',
        cluster: { 'insecure-skip-tls-verify': true },
        user: { token: 't0k' },
        namespace: 'team-a',
      }),
    );
    expect(kc.getCurrentContext()).toBe('sb');
    expect(kc.getCurrentCluster()).toMatchObject({ server: 'http://127.0.0.1:1234', skipTLSVerify: true });
    expect(kc.getCurrentUser()?.token).toBe('t0k');
    expect(kc.getContextObject('sb')?.namespace).toBe('team-a');
  });

  it('an anonymous user and no namespace still load', () => {
    const kc = load(kubeconfigYaml({ name: 'x', server: 'https://h:6443' }));
    expect(kc.getCurrentUser()?.name).toBe('x');
    expect(kc.getContextObject('x')?.namespace).toBeUndefined();
  });
});
