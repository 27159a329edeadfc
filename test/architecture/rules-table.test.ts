// The architecture doc's rule table is what the rules say (rules-table.ts writes it).
import { describe, expect, it } from 'vitest';
import { RULES } from './import-rules';
import { readDoc, rulesTable, withRulesTable } from './rules-table';

describe("docs/architecture.md's import-rule table", () => {
  it('is the table the rules give (regenerate: npx tsx test/architecture/rules-table.ts)', () => {
    const doc = readDoc();
    expect(withRulesTable(doc)).toBe(doc);
  });

  it('has a row per rule, and a changed rule changes the table', () => {
    expect(rulesTable().split('\n')).toHaveLength(RULES.length + 2);
    const first = RULES[0];
    if (!first) throw new Error('no rules');
    const edited = [{ ...first, title: 'a rule the doc does not state' }, ...RULES.slice(1)];
    const doc = readDoc();
    expect(withRulesTable(doc, rulesTable(edited))).not.toBe(doc);
  });
});
