// Table output of more built-ins: the columns and cells kube-apiserver 1.36 answered for the same objects
// (recorded from a real server; ages and addresses aside).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../shared/models/object';
import { SAMPLES } from '../../../test/conformance/support/samples';
import { SandboxServer } from './server';
import { toTable } from './table';

const sandbox = new SandboxServer();
const typeOf = (apiVersion: string, kind: string) => sandbox.registry.byKind(apiVersion, kind)!;

function table(obj: KubeObject): { columns: [string, string][]; cells: unknown[] } {
  const created = sandbox.store.create(obj);
  const t = toTable(typeOf(created.apiVersion!, created.kind!), [created], { include: 'None', now: Date.now() }) as {
    columnDefinitions: { name: string; type: string }[];
    rows: { cells: unknown[] }[];
  };
  const age = t.columnDefinitions.findIndex((c) => c.name === 'Age');
  return {
    columns: t.columnDefinitions.map((c) => [c.name, c.type]),
    cells: (t.rows[0]?.cells ?? []).filter((_, i) => i !== age),
  };
}

const sample = (gr: string, name = 'sample'): KubeObject => SAMPLES.find((s) => s.gr === gr)!.object('default', name);

describe('table printers', () => {
  it('prints StatefulSets, DaemonSets, Jobs and CronJobs with kube-apiserver columns', () => {
    expect(table(sample('apps/statefulsets'))).toEqual({
      columns: [
        ['Name', 'string'],
        ['Ready', 'string'],
        ['Age', 'string'],
      ],
      cells: ['sample', '0/1'],
    });
    expect(table(sample('apps/daemonsets'))).toEqual({
      columns: [
        ['Name', 'string'],
        ['Desired', 'integer'],
        ['Current', 'integer'],
        ['Ready', 'integer'],
        ['Up-to-date', 'integer'],
        ['Available', 'integer'],
        ['Node Selector', 'string'],
        ['Age', 'string'],
      ],
      cells: ['sample', 0, 0, 0, 0, 0, '<none>'],
    });
    expect(table(sample('batch/jobs'))).toEqual({
      columns: [
        ['Name', 'string'],
        ['Status', 'string'],
        ['Completions', 'string'],
        ['Duration', 'string'],
        ['Age', 'string'],
      ],
      cells: ['sample', 'Running', '0/1', ''],
    });
    expect(table(sample('batch/cronjobs'))).toEqual({
      columns: [
        ['Name', 'string'],
        ['Schedule', 'string'],
        ['Timezone', 'string'],
        ['Suspend', 'boolean'],
        ['Active', 'integer'],
        ['Last Schedule', 'string'],
        ['Age', 'string'],
      ],
      cells: ['sample', '*/5 * * * *', '<none>', 'False', 0, '<none>'],
    });
  });

  it('prints Services, Secrets, ServiceAccounts and Leases with kube-apiserver columns', () => {
    const svc = table({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: 'default' },
      spec: { ports: [{ port: 80 }], selector: { a: 'b' } },
    });
    expect(svc.columns).toEqual([
      ['Name', 'string'],
      ['Type', 'string'],
      ['Cluster-IP', 'string'],
      ['External-IP', 'string'],
      ['Port(s)', 'string'],
      ['Age', 'string'],
    ]);
    expect(svc.cells).toEqual(['web', 'ClusterIP', expect.stringMatching(/^10\./), '<none>', '80/TCP']);
    expect(
      table({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default' }, data: { a: 'eA==' } }),
    ).toEqual({
      columns: [
        ['Name', 'string'],
        ['Type', 'string'],
        ['Data', 'string'],
        ['Age', 'string'],
      ],
      cells: ['s', 'Opaque', 1],
    });
    expect(table({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa', namespace: 'default' } })).toEqual(
      {
        columns: [
          ['Name', 'string'],
          ['Age', 'string'],
        ],
        cells: ['sa'],
      },
    );
    expect(
      table({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'l', namespace: 'default' },
        spec: { holderIdentity: 'me' },
      }),
    ).toEqual({
      columns: [
        ['Name', 'string'],
        ['Holder', 'string'],
        ['Age', 'string'],
      ],
      cells: ['l', 'me'],
    });
  });
});
