// Generates go/protocol/protocol_gen.go from the TypeScript protocol, so the Go bridge and the dashboard
// compile against one definition. Run `npx tsx scripts/go-protocol/generate.ts` after changing an event,
// the ids or the protocol version; a test fails while the checked-in Go file is stale.
//
// The mapping is deliberately small: interfaces become structs (a literal `kind` field becomes the event's
// EventKind() and is written first by MarshalJSON), string-literal unions become string types with
// constants, `T[]` a slice, `Record<string, T>` a map, inline object types a named nested struct. An
// optional field is `omitempty`: its zero value and its absence mean the same to the reducer.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const GO_PROTOCOL_FILE = join(ROOT, 'go', 'protocol', 'protocol_gen.go');

/** The files the Go side needs, and for each the declarations it takes (all exported ones when absent). */
const SOURCES: { file: string; only?: string[] }[] = [
  { file: 'shared/protocol/version.ts' },
  { file: 'shared/protocol/ids.ts' },
  { file: 'shared/protocol/reflector-machine.ts', only: ['ReflectorState'] },
  { file: 'shared/protocol/reconcile-outcomes.ts', only: ['ReconcileOutcome'] },
  { file: 'shared/protocol/events-cache.ts' },
  { file: 'shared/protocol/events-workqueue.ts' },
  { file: 'shared/protocol/events-controller.ts' },
  { file: 'shared/protocol/bridge-limits.ts', only: ['BridgeDropCause'] },
  { file: 'shared/protocol/events-bridge.ts' },
  { file: 'shared/protocol/otel-names.ts' },
  {
    file: 'shared/protocol/commands.ts',
    only: [
      'StepCommand',
      'BreakpointCommand',
      'RequeueCommand',
      'StepState',
      'StepBreakpoint',
      'StepOwner',
      'BreakOutcome',
      'AckErrorCode',
    ],
  },
];

const INITIALISMS = new Map([
  ['id', 'ID'],
  ['uid', 'UID'],
  ['gvk', 'GVK'],
  ['url', 'URL'],
  ['rv', 'RV'],
  ['fifo', 'FIFO'],
]);

function goName(name: string): string {
  const words = name.split(/(?=[A-Z])|[-_.]/).filter(Boolean);
  return words.map((w) => INITIALISMS.get(w.toLowerCase()) ?? w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

/** Integers unless the name says time or a rate: durations and epoch times in ms may be fractional. */
function numberType(field: string): string {
  return /(Ms|At)$|^ts$|^rate|PerSecond$/.test(field) ? 'float64' : 'int';
}

// The doc comment right above a node: its last comment block (a run of line comments with no blank line, or one block comment).
function comment(node: ts.Node, sf: ts.SourceFile, indent = ''): string {
  const text = sf.getFullText();
  const ranges = ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [];
  const last = ranges[ranges.length - 1];
  if (!last) return '';
  let lines: string[];
  if (last.kind === ts.SyntaxKind.MultiLineCommentTrivia) {
    lines = text
      .slice(last.pos, last.end)
      .replace(/^\/\*\*?/, '')
      .replace(/\*\/$/, '')
      .split('\n')
      .map((l) => l.replace(/^\s*\*?\s?/, '').trimEnd());
    while (lines[0] === '') lines.shift();
    while (lines[lines.length - 1] === '') lines.pop();
  } else {
    let first = ranges.length - 1;
    while (first > 0) {
      const prev = ranges[first - 1] as ts.CommentRange;
      const cur = ranges[first] as ts.CommentRange;
      if (prev.kind !== ts.SyntaxKind.SingleLineCommentTrivia || /\n\s*\n/.test(text.slice(prev.end, cur.pos))) break;
      first--;
    }
    lines = ranges.slice(first).map((r) => text.slice(r.pos, r.end).replace(/^\/\/ ?/, ''));
  }
  return lines.map((l) => `${indent}// ${l}`.trimEnd() + '\n').join('');
}

interface Ctx {
  sf: ts.SourceFile;
  /** Structs made from inline object types, emitted after their parent. */
  nested: string[];
  /** Names declared as structs (optional references to them become pointers). */
  structs: Set<string>;
}

function literalUnion(t: ts.TypeNode): string[] | undefined {
  if (ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal)) return [t.literal.text];
  if (!ts.isUnionTypeNode(t)) return undefined;
  const out: string[] = [];
  for (const m of t.types) {
    if (!ts.isLiteralTypeNode(m) || !ts.isStringLiteral(m.literal)) return undefined;
    out.push(m.literal.text);
  }
  return out;
}

/** A union of string literals and named string types, e.g. `ReconcileOutcome | 'anyError'`. */
function stringLikeUnion(t: ts.TypeNode): boolean {
  return (
    ts.isUnionTypeNode(t) &&
    t.types.some((m) => ts.isLiteralTypeNode(m)) &&
    t.types.every((m) => ts.isTypeReferenceNode(m) || (ts.isLiteralTypeNode(m) && ts.isStringLiteral(m.literal)))
  );
}

/** `(typeof NAMES)[number]` where NAMES is a string array declared `as const` in the same file. */
function constArrayElements(t: ts.TypeNode, sf: ts.SourceFile): string[] | undefined {
  if (!ts.isIndexedAccessTypeNode(t) || t.indexType.kind !== ts.SyntaxKind.NumberKeyword) return undefined;
  const obj = ts.isParenthesizedTypeNode(t.objectType) ? t.objectType.type : t.objectType;
  if (!ts.isTypeQueryNode(obj)) return undefined;
  const name = obj.exprName.getText(sf);
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) {
      if (!ts.isIdentifier(d.name) || d.name.text !== name || !d.initializer) continue;
      const init = ts.isAsExpression(d.initializer) ? d.initializer.expression : d.initializer;
      if (!ts.isArrayLiteralExpression(init)) return undefined;
      const out: string[] = [];
      for (const e of init.elements) {
        if (!ts.isStringLiteral(e)) return undefined;
        out.push(e.text);
      }
      return out;
    }
  }
  return undefined;
}

function goType(t: ts.TypeNode, field: string, owner: string, ctx: Ctx): string {
  if (t.kind === ts.SyntaxKind.StringKeyword) return 'string';
  if (t.kind === ts.SyntaxKind.BooleanKeyword) return 'bool';
  if (t.kind === ts.SyntaxKind.NumberKeyword) return numberType(field);
  if (t.kind === ts.SyntaxKind.UnknownKeyword) return 'json.RawMessage';
  if (ts.isParenthesizedTypeNode(t)) return goType(t.type, field, owner, ctx);
  if (literalUnion(t) || stringLikeUnion(t)) return 'string';
  if (ts.isUnionTypeNode(t)) {
    // number | string literal (e.g. ReplaySpeed) has no faithful Go form the bridge needs.
    throw new Error(`${owner}.${field}: unions other than string literals are not generated`);
  }
  if (ts.isArrayTypeNode(t)) return `[]${goType(t.elementType, field, owner, ctx)}`;
  if (ts.isTypeLiteralNode(t)) {
    const name = owner + goName(field);
    ctx.nested.push(structFrom(name, t.members, ctx, ''));
    ctx.structs.add(name);
    return name;
  }
  if (ts.isTypeReferenceNode(t)) {
    const ref = t.typeName.getText(ctx.sf);
    if (ref === 'Record' && t.typeArguments?.length === 2) {
      return `map[string]${goType(t.typeArguments[1] as ts.TypeNode, field, owner, ctx)}`;
    }
    return goName(ref);
  }
  throw new Error(`${owner}.${field}: cannot generate a Go type for '${t.getText(ctx.sf)}'`);
}

function structFrom(name: string, members: ts.NodeArray<ts.TypeElement>, ctx: Ctx, doc: string): string {
  let kind: string | undefined;
  const fields: string[] = [];
  for (const m of members) {
    if (!ts.isPropertySignature(m) || !m.type) continue;
    const field = m.name.getText(ctx.sf);
    const lit = literalUnion(m.type);
    if (field === 'kind' && lit?.length === 1) {
      kind = lit[0];
      continue;
    }
    const optional = m.questionToken !== undefined;
    let type = goType(m.type, field, name, ctx);
    if (optional && ctx.structs.has(type)) type = `*${type}`;
    const values = lit && lit.length > 1 ? `${comment(m, ctx.sf, '\t')}\t// One of: ${lit.join(', ')}.\n` : undefined;
    fields.push(
      (values ?? comment(m, ctx.sf, '\t')) +
        `\t${goName(field)} ${type} \`json:"${field}${optional ? ',omitempty' : ''}"\`\n`,
    );
  }
  let out = `${doc}type ${name} struct {\n${fields.join('')}}\n`;
  if (kind) {
    const constName = `Kind${goName(kind)}`;
    out +=
      `\n// ${constName} is the wire kind of ${name}.\nconst ${constName} = ${JSON.stringify(kind)}\n\n` +
      `// EventKind names the event on the wire.\nfunc (${name}) EventKind() string { return ${constName} }\n\n` +
      `// MarshalJSON writes the kind first, then the fields.\n` +
      `func (e ${name}) MarshalJSON() ([]byte, error) {\n` +
      `\ttype fields ${name}\n` +
      `\treturn json.Marshal(struct {\n\t\tKind string \`json:"kind"\`\n\t\tfields\n\t}{${constName}, fields(e)})\n}\n`;
  }
  return out;
}

function declarations(src: { file: string; only?: string[] }, ctx: Ctx): string[] {
  const out: string[] = [];
  const keep = (n: string) => !src.only || src.only.includes(n);
  for (const st of ctx.sf.statements) {
    const exported =
      ts.canHaveModifiers(st) && ts.getModifiers(st)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
    if (!exported) continue;
    if (ts.isInterfaceDeclaration(st) && keep(st.name.text)) {
      const members = [...st.members];
      for (const h of st.heritageClauses ?? []) {
        for (const base of h.types) {
          const baseDecl = ctx.sf.statements.find(
            (s): s is ts.InterfaceDeclaration =>
              ts.isInterfaceDeclaration(s) && s.name.text === base.expression.getText(ctx.sf),
          );
          if (!baseDecl) throw new Error(`${st.name.text} extends ${base.getText(ctx.sf)}, declared elsewhere`);
          members.unshift(...baseDecl.members);
        }
      }
      const name = goName(st.name.text);
      ctx.structs.add(name);
      ctx.nested = [];
      const body = structFrom(name, ts.factory.createNodeArray(members), ctx, comment(st, ctx.sf));
      out.push(body, ...ctx.nested);
    } else if (ts.isTypeAliasDeclaration(st) && keep(st.name.text)) {
      const name = goName(st.name.text);
      const lit = literalUnion(st.type) ?? constArrayElements(st.type, ctx.sf);
      if (lit) {
        const consts = lit.map((v) => `\t${name}${goName(v)} ${name} = ${JSON.stringify(v)}\n`).join('');
        out.push(`${comment(st, ctx.sf)}type ${name} string\n\nconst (\n${consts})\n`);
      } else if (st.type.kind === ts.SyntaxKind.StringKeyword || stringLikeUnion(st.type)) {
        out.push(`${comment(st, ctx.sf)}type ${name} = string\n`);
      } else if (ts.isUnionTypeNode(st.type) && st.type.types.every(ts.isTypeReferenceNode)) {
        const members = st.type.types.map((m) => goName(m.getText(ctx.sf)));
        out.push(`// ${name} is one of: ${members.join(', ')}.\ntype ${name} = RuntimeEvent\n`);
      }
      // Other aliases (intersections, mapped types) describe TypeScript-side helpers only.
    } else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (ts.isIdentifier(d.name) && d.initializer && keep(d.name.text)) out.push(...constant(d, st, ctx));
      }
    }
  }
  return out;
}

/** SCREAMING_CASE to the Go name: OTEL_WRITE_ID_SEED → OtelWriteIDSeed. */
function constName(name: string): string {
  return goName(name.toLowerCase().replace(/_(.)/g, (_m, c: string) => c.toUpperCase()));
}

/**
 * A numeric or string constant becomes a Go const; an object of string literals (`{ a: 'x' } as const`) a
 * const block named after it and each key (OTEL_SPAN.reconcile → OtelSpanReconcile), with the keys' comments.
 */
function constant(d: ts.VariableDeclaration, st: ts.VariableStatement, ctx: Ctx): string[] {
  const name = constName((d.name as ts.Identifier).text);
  const init = d.initializer && ts.isAsExpression(d.initializer) ? d.initializer.expression : d.initializer;
  if (init === undefined) return [];
  if (ts.isNumericLiteral(init) || ts.isStringLiteral(init)) {
    const value = ts.isStringLiteral(init) ? JSON.stringify(init.text) : init.text;
    return [`${comment(st, ctx.sf)}const ${name} = ${value}\n`];
  }
  if (!ts.isObjectLiteralExpression(init)) return [];
  const consts: string[] = [];
  for (const p of init.properties) {
    if (!ts.isPropertyAssignment(p) || !ts.isStringLiteral(p.initializer)) return [];
    const key = p.name.getText(ctx.sf);
    consts.push(`${comment(p, ctx.sf, '\t')}\t${name}${goName(key)} = ${JSON.stringify(p.initializer.text)}\n`);
  }
  return [`${comment(st, ctx.sf)}const (\n${consts.join('')})\n`];
}

/** gofmt from the Go toolchain: the installed one, or the one on PATH. */
export function gofmtPath(): string {
  const installed = '/usr/local/go/bin/gofmt';
  return existsSync(installed) ? installed : 'gofmt';
}

/** The generated file as gofmt leaves it (the checked-in file is formatted). */
export function generateGoProtocol(): string {
  return execFileSync(gofmtPath(), [], { input: generateUnformatted(), encoding: 'utf8' });
}

function generateUnformatted(): string {
  const structs = new Set<string>();
  const parts: string[] = [];
  const files = SOURCES.map((src) => {
    const path = join(ROOT, src.file);
    return { src, sf: ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.ES2022, true) };
  });
  // Every interface is a struct wherever it is used: optional references to one must become pointers.
  for (const { sf } of files) {
    for (const st of sf.statements) if (ts.isInterfaceDeclaration(st)) structs.add(goName(st.name.text));
  }
  for (const { src, sf } of files)
    parts.push(`// From ${src.file}.\n`, ...declarations(src, { sf, nested: [], structs }));
  const header =
    '// Code generated by scripts/go-protocol/generate.ts from shared/protocol; DO NOT EDIT.\n\n' +
    "// Package protocol holds the dashboard protocol's event types, generated from its TypeScript definition.\n" +
    'package protocol\n\nimport "encoding/json"\n\n' +
    '// RuntimeEvent is any protocol event: it names its wire kind and marshals with it.\n' +
    'type RuntimeEvent interface {\n\tEventKind() string\n\tMarshalJSON() ([]byte, error)\n}\n\n';
  return header + parts.join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(GO_PROTOCOL_FILE, generateGoProtocol());
  console.log(`wrote ${relative(ROOT, GO_PROTOCOL_FILE)}`);
}
