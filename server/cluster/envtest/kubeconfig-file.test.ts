import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { renderKubeconfig } from './kubeconfig-file';

describe('renderKubeconfig', () => {
  it('produces a kubeconfig client-node loads, with embedded credentials', () => {
    const text = renderKubeconfig({
      server: 'https://127.0.0.1:6443',
      caPem: 'CA PEM\n',
      certPem: 'CERT PEM\n',
      keyPem: 'KEY PEM\n',
    });
    const kc = new KubeConfig();
    kc.loadFromString(text);
    expect(kc.getCurrentContext()).toBe('envtest');
    expect(kc.getCurrentCluster()?.server).toBe('https://127.0.0.1:6443');
    expect(Buffer.from(kc.getCurrentCluster()?.caData ?? '', 'base64').toString()).toBe('CA PEM\n');
    expect(Buffer.from(kc.getCurrentUser()?.certData ?? '', 'base64').toString()).toBe('CERT PEM\n');
    expect(Buffer.from(kc.getCurrentUser()?.keyData ?? '', 'base64').toString()).toBe('KEY PEM\n');
  });
});
