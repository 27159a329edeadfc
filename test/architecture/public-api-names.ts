// Reads a module's exported names from its source, syntactically: export declarations, `export { … } from`,
// `export * from` (followed into the target) and `export * as ns from`. Quick enough for the unit layer,
// where a full TypeScript program over the runtime would take seconds. tsc itself reports ambiguous star
// exports, so no resolution of clashes is needed here.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

export interface ExportedName {
  name: string;
  /** true when the name only exists for the type checker (interface, type alias, `export type`). */
  typeOnly: boolean;
}

function resolveModule(from: string, spec: string): string {
  const base = resolve(dirname(from), spec);
  for (const candidate of [`${base}.ts`, `${base}/index.ts`, base]) if (existsSync(candidate)) return candidate;
  throw new Error(`cannot resolve '${spec}' from ${from}`);
}

const hasModifier = (node: ts.Node, kind: ts.SyntaxKind): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);

/** Names declared in `file` (not followed through namespace re-exports), sorted by name. */
export function exportedNames(file: string, seen: Set<string> = new Set()): ExportedName[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const out = new Map<string, ExportedName>();
  const add = (name: string, typeOnly: boolean): void => {
    if (name !== 'default') out.set(name, { name, typeOnly });
  };
  for (const st of sf.statements) {
    if (ts.isExportDeclaration(st)) {
      const spec = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
      if (!st.exportClause) {
        // export * from './x' (or export type * from './x')
        if (!spec) continue;
        for (const e of exportedNames(resolveModule(file, spec), new Set(seen)))
          add(e.name, e.typeOnly || st.isTypeOnly);
      } else if (ts.isNamespaceExport(st.exportClause)) {
        add(st.exportClause.name.text, st.isTypeOnly);
      } else {
        for (const el of st.exportClause.elements) add(el.name.text, st.isTypeOnly || el.isTypeOnly);
      }
      continue;
    }
    if (!hasModifier(st, ts.SyntaxKind.ExportKeyword) || hasModifier(st, ts.SyntaxKind.DefaultKeyword)) continue;
    if (ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) add(st.name.text, true);
    else if (ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isEnumDeclaration(st)) {
      if (st.name) add(st.name.text, false);
    } else if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) add(d.name.text, false);
    } else if (ts.isModuleDeclaration(st) && ts.isIdentifier(st.name)) add(st.name.text, false);
  }
  return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The module a namespace re-export (`export * as name from '…'`) in `file` points at. */
export function namespaceTarget(file: string, name: string): string {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  for (const st of sf.statements) {
    if (
      ts.isExportDeclaration(st) &&
      st.exportClause &&
      ts.isNamespaceExport(st.exportClause) &&
      st.exportClause.name.text === name &&
      st.moduleSpecifier &&
      ts.isStringLiteral(st.moduleSpecifier)
    )
      return resolveModule(file, st.moduleSpecifier.text);
  }
  throw new Error(`${file} has no namespace export '${name}'`);
}
