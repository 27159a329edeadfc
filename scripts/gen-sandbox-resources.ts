// Generates server/cluster/sandbox/resources.generated.json, the table of built-in resources the sandbox
// serves, from the discovery documents of a real kube-apiserver (started from the envtest binaries).
// Every group-version the server serves is recorded with its resources: kind, plural and singular names,
// scope, verbs, short names, categories and subresources (with the kind each subresource answers).
// Run: KUBEBUILDER_ASSETS=... npx tsx scripts/gen-sandbox-resources.ts
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ControlPlane, httpCall } from '../server/cluster/envtest';
import type { GeneratedResource } from '../server/cluster/sandbox/builtins';

interface ApiResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  kind: string;
  group?: string;
  version?: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
}

interface GroupVersion {
  group: string;
  version: string;
  preferred: boolean;
  resources: GeneratedResource[];
}

const plane = new ControlPlane();
const info = await plane.start();
try {
  const get = async <T>(path: string): Promise<T> => {
    const r = await httpCall(info.apiServerUrl + path, { tls: info.tls });
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.body}`);
    return JSON.parse(r.body) as T;
  };
  const version = await get<{ gitVersion: string }>('/version');
  const groups = await get<{
    groups: { name: string; versions: { version: string }[]; preferredVersion: { version: string } }[];
  }>('/apis');
  const gvs: { group: string; version: string; preferred: boolean }[] = [{ group: '', version: 'v1', preferred: true }];
  for (const g of groups.groups)
    for (const v of g.versions)
      gvs.push({ group: g.name, version: v.version, preferred: v.version === g.preferredVersion.version });

  const out: GroupVersion[] = [];
  for (const gv of gvs) {
    const path = gv.group ? `/apis/${gv.group}/${gv.version}` : '/api/v1';
    const list = await get<{ resources: ApiResource[] }>(path);
    const byName = new Map<string, GroupVersion['resources'][number]>();
    const entry: GroupVersion = { ...gv, resources: [] };
    for (const r of list.resources) {
      const slash = r.name.indexOf('/');
      if (slash < 0) {
        const res: GroupVersion['resources'][number] = {
          resource: r.name,
          singular: r.singularName,
          kind: r.kind,
          namespaced: r.namespaced,
          verbs: [...r.verbs].sort(),
        };
        if (r.shortNames?.length) res.shortNames = r.shortNames;
        if (r.categories?.length) res.categories = r.categories;
        byName.set(r.name, res);
        entry.resources.push(res);
        continue;
      }
      const parent = byName.get(r.name.slice(0, slash));
      if (!parent) throw new Error(`${path}: subresource ${r.name} before its resource`);
      const sub: NonNullable<typeof parent.subresources>[number] = {
        name: r.name.slice(slash + 1),
        kind: r.kind,
        verbs: [...r.verbs].sort(),
      };
      if (r.group !== undefined && r.group !== gv.group) sub.group = r.group;
      if (r.version !== undefined && r.version !== gv.version) sub.version = r.version;
      (parent.subresources ??= []).push(sub);
    }
    out.push(entry);
  }
  const here = dirname(fileURLToPath(import.meta.url));
  const file = join(here, '../server/cluster/sandbox/resources.generated.json');
  writeFileSync(
    file,
    JSON.stringify({ source: `kube-apiserver ${version.gitVersion} discovery`, groupVersions: out }, null, 1) + '\n',
  );
  const n = out.filter((g) => g.preferred).reduce((s, g) => s + g.resources.length, 0);
  console.log(`${out.length} group-versions, ${n} resources in preferred versions → ${file}`);
} finally {
  await plane.stop();
}
