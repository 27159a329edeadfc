// Generates schema.generated.json, the field tables protobuf.ts decodes request bodies with.
// Reads the Go struct tags (`json:"…" protobuf:"…"`) of the k8s.io/api and apimachinery sources in the
// Go module cache and keeps the messages reachable from the kinds the sandbox serves.
// Run: npx tsx server/cluster/sandbox/protobuf/gen-schema.ts [GOMODCACHE]
import { readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = 'v0.36.3';
const cache = process.argv[2] ?? join(homedir(), 'go/pkg/mod');

/** Package id → [Go import path, source files]. */
const PACKAGES: Record<string, [string, string[]]> = {
  'core/v1': ['k8s.io/api/core/v1', [`k8s.io/api@${VERSION}/core/v1/types.go`]],
  'apps/v1': ['k8s.io/api/apps/v1', [`k8s.io/api@${VERSION}/apps/v1/types.go`]],
  'coordination/v1': ['k8s.io/api/coordination/v1', [`k8s.io/api@${VERSION}/coordination/v1/types.go`]],
  'events/v1': ['k8s.io/api/events/v1', [`k8s.io/api@${VERSION}/events/v1/types.go`]],
  'autoscaling/v1': ['k8s.io/api/autoscaling/v1', [`k8s.io/api@${VERSION}/autoscaling/v1/types.go`]],
  'meta/v1': ['k8s.io/apimachinery/pkg/apis/meta/v1', [`k8s.io/apimachinery@${VERSION}/pkg/apis/meta/v1/types.go`]],
};

/** Types with their own wire form (apimachinery's hand-written protobuf). */
const SPECIAL: Record<string, string> = {
  'meta/v1.Time': 'time',
  'meta/v1.MicroTime': 'microtime',
  'meta/v1.Duration': 'duration',
  'meta/v1.FieldsV1': 'fieldsv1',
  'k8s.io/apimachinery/pkg/util/intstr.IntOrString': 'intorstring',
  'k8s.io/apimachinery/pkg/api/resource.Quantity': 'quantity',
  'k8s.io/apimachinery/pkg/runtime.RawExtension': 'raw',
  'k8s.io/apimachinery/pkg/types.UID': 'string',
};

/** Roots: apiVersion/kind → message. */
const ROOTS: Record<string, string> = {
  'v1/Namespace': 'core/v1.Namespace',
  'v1/Pod': 'core/v1.Pod',
  'v1/ConfigMap': 'core/v1.ConfigMap',
  'v1/Secret': 'core/v1.Secret',
  'v1/Service': 'core/v1.Service',
  'v1/ServiceAccount': 'core/v1.ServiceAccount',
  'v1/Node': 'core/v1.Node',
  'v1/Event': 'core/v1.Event',
  'v1/Binding': 'core/v1.Binding',
  'apps/v1/Deployment': 'apps/v1.Deployment',
  'apps/v1/ReplicaSet': 'apps/v1.ReplicaSet',
  'coordination.k8s.io/v1/Lease': 'coordination/v1.Lease',
  'events.k8s.io/v1/Event': 'events/v1.Event',
  'autoscaling/v1/Scale': 'autoscaling/v1.Scale',
  'v1/DeleteOptions': 'meta/v1.DeleteOptions',
  'meta.k8s.io/v1/DeleteOptions': 'meta/v1.DeleteOptions',
};

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
    for (const m of src.matchAll(/^\s*(\w+\s+)?"([\w./-]+)"\s*$/gm)) {
      const path = m[2] as string;
      imports.set(m[1]?.trim() || path.split('/').pop()!, path);
    }
    let current: GoField[] | undefined;
    for (const line of src.split('\n')) {
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
