// Ports apimachinery pkg/labels (selector.go) and metav1.LabelSelectorAsSelector: parse a selector
// string or a LabelSelector object and match label maps against it.

export type SelectorOperator = 'in' | 'notin' | 'exists' | '!' | '=' | '==' | '!=';

export interface Requirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values: string[];
}

/** metav1.LabelSelector as it appears in specs. */
export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

export interface Selector {
  matches(labels: Record<string, string> | undefined): boolean;
  empty(): boolean;
  toString(): string;
  requirements(): Requirement[];
}

class RequirementsSelector implements Selector {
  constructor(private readonly reqs: Requirement[]) {}

  matches(labels: Record<string, string> | undefined): boolean {
    const l = labels ?? {};
    return this.reqs.every((r) => matchRequirement(r, l));
  }

  empty(): boolean {
    return this.reqs.length === 0;
  }

  requirements(): Requirement[] {
    return this.reqs.map((r) => ({ ...r, values: [...r.values] }));
  }

  toString(): string {
    return this.reqs.map(requirementString).join(',');
  }
}

function matchRequirement(r: Requirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  switch (r.operator) {
    case 'In':
      return has && r.values.includes(labels[r.key] ?? '');
    case 'NotIn':
      return !has || !r.values.includes(labels[r.key] ?? '');
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
  }
}

function requirementString(r: Requirement): string {
  switch (r.operator) {
    case 'Exists':
      return r.key;
    case 'DoesNotExist':
      return `!${r.key}`;
    case 'In':
      return r.values.length === 1 ? `${r.key}=${r.values[0]}` : `${r.key} in (${[...r.values].sort().join(',')})`;
    case 'NotIn':
      return r.values.length === 1 ? `${r.key}!=${r.values[0]}` : `${r.key} notin (${[...r.values].sort().join(',')})`;
  }
}

/** labels.Everything() */
export const everything = (): Selector => new RequirementsSelector([]);

/** labels.SelectorFromSet */
export function selectorFromSet(set: Record<string, string>): Selector {
  return new RequirementsSelector(
    Object.keys(set)
      .sort()
      .map((key) => ({ key, operator: 'In' as const, values: [set[key] ?? ''] })),
  );
}

/** Splits on commas that are not inside parentheses. */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** labels.Parse: "a=b,c!=d,e in (x,y),f notin (z),g,!h". Throws on a malformed selector. */
export function parseSelector(text: string): Selector {
  const reqs: Requirement[] = [];
  if (text.trim() === '') return new RequirementsSelector(reqs);
  for (const raw of splitTopLevel(text)) {
    const part = raw.trim();
    if (part === '') throw new Error(`unable to parse requirement: empty requirement in "${text}"`);
    const setMatch = /^([^\s!=(),]+)\s+(in|notin)\s*\(([^)]*)\)$/.exec(part);
    if (setMatch) {
      const values = (setMatch[3] ?? '')
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
      reqs.push({ key: setMatch[1] ?? '', operator: setMatch[2] === 'in' ? 'In' : 'NotIn', values });
      continue;
    }
    const eqMatch = /^([^\s!=(),]+)\s*(==|=|!=)\s*([^\s!=(),]*)$/.exec(part);
    if (eqMatch) {
      reqs.push({ key: eqMatch[1] ?? '', operator: eqMatch[2] === '!=' ? 'NotIn' : 'In', values: [eqMatch[3] ?? ''] });
      continue;
    }
    const notExists = /^!\s*([^\s!=(),]+)$/.exec(part);
    if (notExists) {
      reqs.push({ key: notExists[1] ?? '', operator: 'DoesNotExist', values: [] });
      continue;
    }
    if (/^[^\s!=(),]+$/.test(part)) {
      reqs.push({ key: part, operator: 'Exists', values: [] });
      continue;
    }
    throw new Error(`unable to parse requirement: "${part}"`);
  }
  return new RequirementsSelector(reqs);
}

/** metav1.LabelSelectorAsSelector: an empty selector matches everything. Throws on invalid input. */
export function labelSelectorAsSelector(ls: LabelSelector): Selector {
  const reqs: Requirement[] = [];
  for (const key of Object.keys(ls.matchLabels ?? {}).sort()) {
    reqs.push({ key, operator: 'In', values: [ls.matchLabels?.[key] ?? ''] });
  }
  for (const expr of ls.matchExpressions ?? []) {
    const values = expr.values ?? [];
    switch (expr.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) throw new Error(`${expr.operator} requires at least one value for key ${expr.key}`);
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) throw new Error(`${expr.operator} takes no values for key ${expr.key}`);
        break;
      default:
        throw new Error(`"${String(expr.operator)}" is not a valid label selector operator`);
    }
    reqs.push({ key: expr.key, operator: expr.operator, values: [...values] });
  }
  return new RequirementsSelector(reqs);
}
