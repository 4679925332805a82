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

/** A rule's messages by the path of the field inside the rule they are about (`column`, `by.0.column`; '' for the rule). */
export type RuleErrors = Readonly<Record<string, readonly string[]>>;

/**
 * The server's messages about one rule, from a 400's errors map, by field. The keys name the rule by position
 * ("transformations.0.rules.1.column"): each message goes under the field it names, worded as the server words it
 * ("Column is required"), never with the key.
 */
export function ruleErrors(
  errors: Readonly<Record<string, string[]>>,
  transformation: number,
  rule: number,
): RuleErrors {
  const byField: Record<string, string[]> = {};
  for (const [key, texts] of Object.entries(errors)) {
    const match = RULE_ERROR_KEY.exec(key);
    if (!match || Number(match[1]) !== transformation || Number(match[2]) !== rule) continue;
    (byField[match[3] ?? ''] ??= []).push(...texts);
  }
  return byField;
}

/** The messages about a field and anything inside it (`columns` takes `columns.2`), as one text; undefined if none. */
export function fieldError(errors: RuleErrors, field: string): string | undefined {
  const texts = Object.entries(errors)
    .filter(([path]) => path === field || path.startsWith(`${field}.`))
    .flatMap(([, list]) => list);
  return texts.length > 0 ? [...new Set(texts)].join(' ') : undefined;
}

/** The fields a rule's form shows for it as it stands (a mask's salt only when it hashes, and so on). */
export function shownRuleFields(rule: RuleDraft): string[] {
  switch (rule.type) {
    case 'select':
      return ['columns'];
    case 'rename':
      return ['from', 'to'];
    case 'mask':
      return [
        'column',
        'mode',
        ...(rule['mode'] === 'partial' ? ['keepFirst', 'keepLast'] : []),
        rule['mode'] === 'hash' ? 'salt' : 'maskChar',
      ];
    case 'filter':
      return ['column', 'op', ...(rule['op'] === 'isNull' || rule['op'] === 'notNull' ? [] : ['value'])];
    case 'sort': {
      const count = Array.isArray(rule['by']) ? rule['by'].length : 0;
      return Array.from({ length: count }, (_, i) => [`by.${i}.column`, `by.${i}.direction`]).flat();
    }
    case 'cast':
      return ['column', 'to'];
    case 'format':
      return ['column', 'kind', ...(rule['kind'] === 'date' ? ['pattern'] : ['decimals', 'thousandsSeparator'])];
    case 'computed':
      return ['name', 'expression'];
    case 'limit':
      return ['count'];
  }
}

/** The messages no field of the rule's form shows: they go under the rule as a whole. */
export function ruleLevelMessages(errors: RuleErrors, rule: RuleDraft): string[] {
  const shown = shownRuleFields(rule);
  const left = Object.entries(errors).filter(
    ([path]) => !shown.some((field) => path === field || path.startsWith(`${field}.`)),
  );
  return [...new Set(left.flatMap(([, texts]) => texts))];
}
