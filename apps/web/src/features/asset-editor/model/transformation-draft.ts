import type { TransformationView } from '@datalab/contract/api/data-sources';
import { ruleTypes, type RuleInput, type RuleType } from '@datalab/contract/transformations';

// The editor's copy of an asset's transformations: an ordered list, each an ordered list of rules in the contract's
// shape (@datalab/contract/transformations, the schema the server checks and the engine runs). Each item carries a
// key of its own so that React keeps a rule's inputs with the rule when the list is reordered; the keys never leave
// the editor.

export { ruleTypes, type RuleType };

export const ruleLabels: Record<RuleType, string> = {
  select: 'Select columns',
  rename: 'Rename a column',
  mask: 'Mask a column',
  filter: 'Filter rows',
  sort: 'Sort rows',
  cast: 'Change a column type',
  format: 'Format a column',
  computed: 'Computed column',
  limit: 'Limit rows',
};

/**
 * A rule as its form holds it while it is edited: possibly incomplete (a column not chosen yet). It is sent as it
 * is; the server checks it against the contract's rule schema and its messages show under the rule.
 */
export type RuleDraft = { type: RuleType } & Record<string, unknown>;

export interface KeyedRule {
  key: string;
  rule: RuleDraft;
}

export interface TransformationDraft {
  key: string;
  name: string;
  rules: KeyedRule[];
}

let nextKey = 0;
const newKey = () => `t${++nextKey}`;

/** A new rule of a type, with the engine's defaults filled in so that the form shows them. */
export function newRule(type: RuleType): KeyedRule {
  const defaults: Record<RuleType, Record<string, unknown>> = {
    select: { columns: [] },
    rename: { from: '', to: '' },
    mask: { column: '', mode: 'partial', keepFirst: 1, keepLast: 0, maskChar: '*', salt: '' },
    filter: { column: '', op: 'eq', value: '' },
    sort: { by: [{ column: '', direction: 'asc' }] },
    cast: { column: '', to: 'string' },
    format: { column: '', kind: 'number', pattern: 'YYYY-MM-DD', decimals: 2, thousandsSeparator: '' },
    computed: { name: '', expression: '' },
    limit: { count: 100 },
  };
  return { key: newKey(), rule: { type, ...defaults[type] } };
}

export function newTransformation(): TransformationDraft {
  return { key: newKey(), name: '', rules: [] };
}

const byPosition = (a: { position: number }, b: { position: number }) => a.position - b.position;

export function transformationDrafts(stored: readonly TransformationView[]): TransformationDraft[] {
  return [...stored].sort(byPosition).map((t) => ({
    key: newKey(),
    name: t.name,
    rules: [...t.rules].sort(byPosition).map(({ id: _id, position: _position, ...rule }) => ({ key: newKey(), rule })),
  }));
}

/** The transformations as the preview and save calls take them, keys left out (each rule as drafted: see RuleDraft). */
export function transformationInputs(drafts: readonly TransformationDraft[]): { name: string; rules: RuleInput[] }[] {
  return drafts.map((t) => ({ name: t.name, rules: t.rules.map((keyed) => keyed.rule as RuleInput) }));
}

/** The list with the item at `index` moved by `delta` places (unchanged at either end). */
export function moved<T>(items: readonly T[], index: number, delta: number): T[] {
  const target = index + delta;
  if (target < 0 || target >= items.length) return [...items];
  const next = [...items];
  const [item] = next.splice(index, 1);
  if (item !== undefined) next.splice(target, 0, item);
  return next;
}

const RULE_ERROR_KEY = /^(?:transformations\.)?(\d+)\.rules\.(\d+)(?:\.(.+))?$/u;

/**
 * The server's messages about one rule, from a 400's errors map. The keys name the rule by position
 * ("transformations.0.rules.1.column"; the engine's compile step leaves out the prefix): field, then message.
 */
export function ruleMessages(errors: Record<string, string[]>, transformation: number, rule: number): string[] {
  const messages: string[] = [];
  for (const [key, texts] of Object.entries(errors)) {
    const match = RULE_ERROR_KEY.exec(key);
    if (!match || Number(match[1]) !== transformation || Number(match[2]) !== rule) continue;
    for (const text of texts) messages.push(match[3] ? `${match[3]}: ${text}` : text);
  }
  return messages;
}
