// Ports apimachinery pkg/labels/selector.go (equality- and set-based label selectors) and
// pkg/fields/selector.go (field selectors: =, ==, != with backslash escapes).
import { newBadRequest } from './status-errors';

export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  key: string;
  operator: LabelOperator;
  values: string[];
}

export interface LabelSelector {
  requirements: LabelRequirement[];
  matches(labels: Record<string, string> | undefined): boolean;
  readonly empty: boolean;
}

const QUALIFIED_NAME =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function matchRequirement(r: LabelRequirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const v = labels[r.key];
  switch (r.operator) {
    case '=':
    case '==':
    case 'in':
      return has && r.values.includes(v as string);
    case '!=':
    case 'notin':
      return !has || !r.values.includes(v as string);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || !/^-?\d+$/.test(v as string)) return false;
      const n = Number(v);
      const want = Number(r.values[0]);
      return r.operator === 'gt' ? n > want : n < want;
    }
  }
}

function makeSelector(requirements: LabelRequirement[]): LabelSelector {
  return {
    requirements,
    empty: requirements.length === 0,
    matches: (labels) => requirements.every((r) => matchRequirement(r, labels ?? {})),
  };
}

export const EVERYTHING: LabelSelector = makeSelector([]);

type Token = { t: 'id' | 'op' | '(' | ')' | ',' | '!'; v: string };

function lex(s: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i] as string;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')' || c === ',') {
      out.push({ t: c, v: c });
      i++;
    } else if (s.startsWith('==', i) || s.startsWith('!=', i)) {
      out.push({ t: 'op', v: s.slice(i, i + 2) });
      i += 2;
    } else if (c === '=' || c === '<' || c === '>') {
      out.push({ t: 'op', v: c });
      i++;
    } else if (c === '!') {
      out.push({ t: '!', v: c });
      i++;
    } else {
      let j = i;
      while (j < s.length && !/[\s(),=!<>]/.test(s[j] as string)) j++;
      out.push({ t: 'id', v: s.slice(i, j) });
      i = j;
    }
  }
  return out;
}

function parseErr(msg: string): never {
  throw newBadRequest(`unable to parse requirement: ${msg}`);
}

function checkKey(key: string): void {
  if (!QUALIFIED_NAME.test(key) || key.split('/').pop()!.length > 63) {
    parseErr(
      `invalid label key "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
    );
  }
}

function checkValue(v: string): void {
  if (v.length > 63 || !LABEL_VALUE.test(v)) {
    parseErr(
      `invalid label value: "${v}": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
    );
  }
}

/** Parses a label selector string; an empty string selects everything. Errors are 400 BadRequest. */
export function parseLabelSelector(input: string | undefined): LabelSelector {
  if (!input || input.trim() === '') return EVERYTHING;
  const toks = lex(input);
  let p = 0;
  const peek = (): Token | undefined => toks[p];
  const reqs: LabelRequirement[] = [];
  for (;;) {
    let tok = peek();
    if (!tok) parseErr("found '', expected: !, identifier, or 'end of string'");
    if (tok.t === '!') {
      p++;
      const id = peek();
      if (!id || id.t !== 'id') parseErr(`found '${id?.v ?? ''}', expected: identifier`);
      checkKey(id.v);
      p++;
      reqs.push({ key: id.v, operator: '!', values: [] });
    } else if (tok.t === 'id') {
      const key = tok.v;
      checkKey(key);
      p++;
      tok = peek();
      if (!tok || tok.t === ',') {
        reqs.push({ key, operator: 'exists', values: [] });
      } else if (tok.t === 'op') {
        p++;
        const opv = tok.v;
        const val = peek();
        let value = '';
        if (val && val.t === 'id') {
          value = val.v;
          p++;
        } else if (val && val.t !== ',') {
          parseErr(`found '${val.v}', expected: identifier`);
        }
        if (opv === '<' || opv === '>') {
          if (!/^-?\d+$/.test(value)) parseErr(`for 'Gt', 'Lt' operators, the value must be an integer`);
          reqs.push({ key, operator: opv === '>' ? 'gt' : 'lt', values: [value] });
        } else {
          checkValue(value);
          reqs.push({ key, operator: opv as LabelOperator, values: [value] });
        }
      } else if (tok.t === 'id' && (tok.v === 'in' || tok.v === 'notin')) {
        p++;
        const op = tok.v;
        if (peek()?.t !== '(') parseErr(`found '${peek()?.v ?? ''}', expected: '('`);
        p++;
        const values: string[] = [];
        for (;;) {
          const v = peek();
          if (!v) parseErr(`found '', expected: ',', ')' or identifier`);
          const prev = toks[p - 1]?.t;
          if (v.t === ')' || v.t === ',') {
            // "()" and empty slots between commas stand for the empty value, as upstream parses them.
            if (prev === '(' || prev === ',') values.push('');
            p++;
            if (v.t === ')') break;
            continue;
          }
          if (v.t !== 'id') parseErr(`found '${v.v}', expected: ',', ')' or identifier`);
          checkValue(v.v);
          values.push(v.v);
          p++;
        }
        reqs.push({ key, operator: op, values });
      } else {
        parseErr(`found '${tok.v}', expected: in, notin, =, ==, !=, gt, lt`);
      }
    } else {
      parseErr(`found '${tok.v}', expected: !, identifier, or 'end of string'`);
    }
    const next = peek();
    if (!next) break;
    if (next.t !== ',') parseErr(`found '${next.v}', expected: ',' or 'end of string'`);
    p++;
  }
  return makeSelector(reqs);
}

/** Converts a metav1.LabelSelector (matchLabels/matchExpressions) into a selector, as owners use it. */
export function labelSelectorFromObject(sel: {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}): LabelSelector {
  const reqs: LabelRequirement[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) reqs.push({ key: k, operator: '=', values: [v] });
  for (const e of sel.matchExpressions ?? []) {
    const op = e.operator.toLowerCase();
    const map: Record<string, LabelOperator> = { in: 'in', notin: 'notin', exists: 'exists', doesnotexist: '!' };
    const o = map[op];
    if (!o) throw newBadRequest(`"${e.operator}" is not a valid label selector operator`);
    reqs.push({ key: e.key, operator: o, values: e.values ?? [] });
  }
  return makeSelector(reqs);
}

export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

export interface FieldSelector {
  requirements: FieldRequirement[];
  matches(fields: Record<string, string>): boolean;
  /** The value required by `field=value`, if any (used for metadata.name shortcuts). */
  requiresExactMatch(field: string): string | undefined;
  readonly empty: boolean;
}

function splitUnescaped(s: string, sep: string): string[] {
  const parts: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === '\\' && i + 1 < s.length) {
      cur += c + (s[i + 1] as string);
      i++;
    } else if (c === sep) {
      parts.push(cur);
      cur = '';
    } else {
      cur += c;
    }
  }
  parts.push(cur);
  return parts;
}

function unescapeFieldValue(v: string): string {
  let out = '';
  for (let i = 0; i < v.length; i++) {
    const c = v[i] as string;
    if (c === '\\') {
      const n = v[i + 1];
      if (n === undefined || !',=\\'.includes(n))
        throw newBadRequest(`invalid field selector: invalid escape sequence: \\${n ?? ''}`);
      out += n;
      i++;
    } else if (c === ',' || c === '=') {
      throw newBadRequest(`invalid field selector: unescaped character ${c}`);
    } else {
      out += c;
    }
  }
  return out;
}

/** Parses a field selector string (fields.ParseSelector); errors are 400 BadRequest. */
export function parseFieldSelector(input: string | undefined): FieldSelector {
  const reqs: FieldRequirement[] = [];
  if (input && input.trim() !== '') {
    for (const part of splitUnescaped(input, ',')) {
      if (part === '') continue;
      let op: '=' | '!=' = '=';
      let idx = -1;
      let len = 0;
      for (let i = 0; i < part.length; i++) {
        if (part[i] === '\\') {
          i++;
          continue;
        }
        if (part.startsWith('!=', i)) {
          op = '!=';
          idx = i;
          len = 2;
          break;
        }
        if (part.startsWith('==', i)) {
          idx = i;
          len = 2;
          break;
        }
        if (part[i] === '=') {
          idx = i;
          len = 1;
          break;
        }
      }
      if (idx < 0) throw newBadRequest(`invalid selector: '${part}'; can't understand '${part}'`);
      const field = part.slice(0, idx).trim();
      const value = unescapeFieldValue(part.slice(idx + len));
      reqs.push({ field, operator: op, value });
    }
  }
  return {
    requirements: reqs,
    empty: reqs.length === 0,
    matches: (fields) =>
      reqs.every((r) => {
        const v = fields[r.field] ?? '';
        return r.operator === '=' ? v === r.value : v !== r.value;
      }),
    requiresExactMatch: (field) => reqs.find((r) => r.field === field && r.operator === '=')?.value,
  };
}
