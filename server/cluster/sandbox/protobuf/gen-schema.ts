// Generates schema.generated.json, the field tables protobuf.ts decodes request bodies with.
// Reads the Go struct tags (`json:"…" protobuf:"…"`) of the k8s.io/api, apiextensions-apiserver,
// kube-aggregator and apimachinery sources in the Go module cache and keeps the messages reachable from
// every kind of ../resources.generated.json (the real server's discovery) plus the subresource bodies.
// Run: npx tsx server/cluster/sandbox/protobuf/gen-schema.ts [GOMODCACHE]
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import table from '../resources.generated.json';

const VERSION = 'v0.36.3';
const cache = process.argv[2] ?? join(homedir(), 'go/pkg/mod');

/** The Go package id (`<dir>/<version>`) holding a group-version's types. */
const pkgIdOf = (group: string, version: string): string => `${group === '' ? 'core' : group.split('.')[0]}/${version}`;

/** Go import path of a package id. */
function goPathOf(id: string): [string, string] {
  if (id.startsWith('apiextensions/'))
    return [
      `k8s.io/apiextensions-apiserver/pkg/apis/${id}`,
      `k8s.io/apiextensions-apiserver@${VERSION}/pkg/apis/${id}`,
    ];
  if (id.startsWith('apiregistration/'))
    return [`k8s.io/kube-aggregator/pkg/apis/${id}`, `k8s.io/kube-aggregator@${VERSION}/pkg/apis/${id}`];
  if (id === 'meta/v1')
    return ['k8s.io/apimachinery/pkg/apis/meta/v1', `k8s.io/apimachinery@${VERSION}/pkg/apis/meta/v1`];
  return [`k8s.io/api/${id}`, `k8s.io/api@${VERSION}/${id}`];
}

/** Package id → [Go import path, source files]. */
const PACKAGES: Record<string, [string, string[]]> = {};
const addPackage = (id: string): void => {
  if (PACKAGES[id]) return;
  const [path, dir] = goPathOf(id);
  const files = readdirSync(join(cache, dir))
    .filter((f) => f.endsWith('.go') && !f.endsWith('_test.go') && !/^(zz_|generated|register|doc)/.test(f))
    .map((f) => `${dir}/${f}`);
  PACKAGES[id] = [path, files];
};

/** Types with their own wire form (apimachinery's and apiextensions' hand-written protobuf). */
const SPECIAL: Record<string, string> = {
  'meta/v1.Time': 'time',
  'meta/v1.MicroTime': 'microtime',
  'meta/v1.Duration': 'duration',
  'meta/v1.FieldsV1': 'fieldsv1',
  'k8s.io/apimachinery/pkg/util/intstr.IntOrString': 'intorstring',
  'k8s.io/apimachinery/pkg/api/resource.Quantity': 'quantity',
  'k8s.io/apimachinery/pkg/runtime.RawExtension': 'raw',
  'k8s.io/apimachinery/pkg/types.UID': 'string',
  'k8s.io/apimachinery/pkg/types.NodeName': 'string',
  'apiextensions/v1.JSON': 'raw',
  'apiextensions/v1.JSONSchemaPropsOrArray': 'schemaorarray',
  'apiextensions/v1.JSONSchemaPropsOrBool': 'schemaorbool',
  'apiextensions/v1.JSONSchemaPropsOrStringArray': 'schemaorstrings',
  'authentication/v1.ExtraValue': 'stringlist',
  'authorization/v1.ExtraValue': 'stringlist',
  'certificates/v1.ExtraValue': 'stringlist',
};

/** Roots: apiVersion/kind → message: every served kind, and the bodies subresources and deletes take. */
const ROOTS: Record<string, string> = {};
for (const gv of table.groupVersions) {
  const id = pkgIdOf(gv.group, gv.version);
  addPackage(id);
  const apiVersion = gv.group ? `${gv.group}/${gv.version}` : gv.version;
  for (const r of gv.resources) ROOTS[`${apiVersion}/${r.kind}`] = `${id}.${r.kind}`;
}
for (const id of ['meta/v1', 'autoscaling/v1', 'policy/v1', 'authentication/v1']) addPackage(id);
Object.assign(ROOTS, {
  'v1/Binding': 'core/v1.Binding',
  'autoscaling/v1/Scale': 'autoscaling/v1.Scale',
  'policy/v1/Eviction': 'policy/v1.Eviction',
  'authentication.k8s.io/v1/TokenRequest': 'authentication/v1.TokenRequest',
  'v1/DeleteOptions': 'meta/v1.DeleteOptions',
  'meta.k8s.io/v1/DeleteOptions': 'meta/v1.DeleteOptions',
});
// Kinds discovery names that have no Go type of that name (none today); fail loudly if one appears.

/** [number, jsonName, type, flags] with flags: r=repeated p=pointer o=omitempty i=inline. */
type Field = [number, string, string, string];

interface GoField {
  num: number;
  json: string;
  goType: string;
  omitempty: boolean;
  inline: boolean;
}

const structs = new Map<string, GoField[]>();
const aliases = new Map<string, string>();
const importsOf = new Map<string, Map<string, string>>();
const pkgByPath = new Map(Object.entries(PACKAGES).map(([id, [path]]) => [path, id]));

for (const [id, [, files]] of Object.entries(PACKAGES)) {
  const imports = new Map<string, string>();
  importsOf.set(id, imports);
  for (const f of files) {
    const src = readFileSync(join(cache, f), 'utf8');
    for (const m of src.matchAll(/^\s*(?:import\s+)?(\w+\s+)?"([\w./-]+)"\s*$/gm)) {
      const path = m[2] as string;
      imports.set(m[1]?.trim() || path.split('/').pop()!, path);
    }
    let current: GoField[] | undefined;
    for (const line of src.split('\n')) {
      const empty = /^type (\w+) struct\s*\{\s*\}/.exec(line);
      if (empty) {
        structs.set(`${id}.${empty[1]}`, []);
        continue;
      }
      const start = /^type (\w+) struct \{/.exec(line);
      if (start) {
        current = [];
        structs.set(`${id}.${start[1]}`, current);
        continue;
      }
      const alias = /^type (\w+) (\S+)\s*$/.exec(line);
      if (alias && !line.includes('struct') && !line.includes('interface'))
        aliases.set(`${id}.${alias[1]}`, alias[2] as string);
      if (current && line.startsWith('}')) {
        current = undefined;
        continue;
      }
      if (!current) continue;
      const m = /^\t(?:(\w+)\s+)?(\S+)\s+`(.*)`/.exec(line);
      if (!m) continue;
      const tag = m[3] as string;
      const pb = /protobuf:"([^"]*)"/.exec(tag);
      const js = /json:"([^"]*)"/.exec(tag);
      if (!pb || !js || pb[1] === '-') continue;
      const parts = (pb[1] as string).split(',');
      const jsonParts = (js[1] as string).split(',');
      current.push({
        num: Number(parts[1]),
        json: jsonParts[0] as string,
        goType: m[2] as string,
        omitempty: jsonParts.includes('omitempty') || jsonParts.includes('omitzero'),
        inline: jsonParts[0] === '' && jsonParts.includes('inline'),
      });
    }
  }
}

/** Resolves a Go type expression in package `pkg` to a schema type name. */
function resolve(pkg: string, t: string): string {
  if (t.startsWith('*')) return resolve(pkg, t.slice(1));
  if (t === '[]byte') return 'bytes';
  if (t.startsWith('[]')) return resolve(pkg, t.slice(2));
  const map = /^map\[([^\]]+)\](.+)$/.exec(t);
  if (map) return `map:${resolve(pkg, map[2] as string)}`;
  if (t === 'string') return 'string';
  if (t === 'bool') return 'bool';
  if (/^u?int(8|16|32|64)?$/.test(t)) return 'int';
  if (t === 'float64' || t === 'float32') return 'double';
  let qualified: string;
  const dot = t.indexOf('.');
  if (dot > 0) {
    const path = importsOf.get(pkg)?.get(t.slice(0, dot)) ?? t.slice(0, dot);
    const id = pkgByPath.get(path) ?? path;
    qualified = `${id}.${t.slice(dot + 1)}`;
  } else {
    qualified = `${pkg}.${t}`;
  }
  const special = SPECIAL[qualified];
  if (special) return special;
  if (structs.has(qualified)) return qualified;
  const alias = aliases.get(qualified);
  if (alias) return resolve(qualified.slice(0, qualified.lastIndexOf('.')), alias);
  throw new Error(`unresolved Go type ${t} in ${pkg}`);
}

const out: Record<string, Field[]> = {};
const todo = [...new Set(Object.values(ROOTS))];
while (todo.length) {
  const name = todo.pop() as string;
  if (out[name]) continue;
  const pkg = name.slice(0, name.lastIndexOf('.'));
  const fields = structs.get(name);
  if (!fields) throw new Error(`missing struct ${name}`);
  out[name] = fields.map((f) => {
    const type = resolve(pkg, f.goType);
    const flags =
      (/^(\*)?\[\]/.test(f.goType) && f.goType !== '[]byte' ? 'r' : '') +
      (f.goType.startsWith('*') ? 'p' : '') +
      (f.omitempty ? 'o' : '') +
      (f.inline ? 'i' : '');
    const msg = type.startsWith('map:') ? type.slice(4) : type;
    if (msg.includes('/') && !out[msg]) todo.push(msg);
    return [f.num, f.json, type, flags];
  });
}

const here = dirname(fileURLToPath(import.meta.url));
writeFileSync(
  join(here, 'schema.generated.json'),
  JSON.stringify({ source: `k8s.io/api ${VERSION}`, roots: ROOTS, messages: out }) + '\n',
);
console.log(`${Object.keys(out).length} messages`);
