import type { DefinitionChange, DefinitionDifference, DefinitionPlan } from '@datalab/contract/api/definitions';
import { secretEnvName } from './secrets.ts';

// A plan as a reviewer reads it in a terminal or a CI log: one line per change in the order it would be made
// (+ create, ~ update, - delete), and for an update each differing field with its value before → after. Text
// spanning lines (SQL) is shown as lines removed and added. Plain text, no colours: CI logs keep it readable.

const SIGN = { create: '+', update: '~', delete: '-' } as const;
const VERB = { create: 'create', update: 'update', delete: 'delete' } as const;

const KIND_LABEL: Record<DefinitionChange['kind'], string> = {
  collection: 'collection',
  sqlConnection: 'SQL connection',
  webApiConnection: 'Web API connection',
  dataAsset: 'data asset',
  dataRole: 'data role',
};

/** A value on one line: text quoted, absence as (none), everything else as JSON. */
export function formatValue(value: unknown): string {
  if (value === undefined) return '(none)';
  return JSON.stringify(value) ?? String(value);
}

const isMultiline = (value: unknown) => typeof value === 'string' && value.includes('\n');

function differenceLines(difference: DefinitionDifference, indent: string): string[] {
  const { path, before, after } = difference;
  if (isMultiline(before) || isMultiline(after)) {
    const removed = typeof before === 'string' ? before.split('\n') : before === undefined ? [] : [formatValue(before)];
    const added = typeof after === 'string' ? after.split('\n') : after === undefined ? [] : [formatValue(after)];
    return [
      `${indent}${path}:`,
      ...removed.map((line) => `${indent}  - ${line}`),
      ...added.map((line) => `${indent}  + ${line}`),
    ];
  }
  return [`${indent}${path}: ${formatValue(before)} → ${formatValue(after)}`];
}

export function changeLines(change: DefinitionChange): string[] {
  const head = `  ${SIGN[change.action]} ${VERB[change.action]} ${KIND_LABEL[change.kind]} "${change.name}"`;
  return [head, ...change.differences.flatMap((difference) => differenceLines(difference, '      '))];
}

function counts(changes: readonly DefinitionChange[]) {
  const count = (action: DefinitionChange['action']) => changes.filter((change) => change.action === action).length;
  return { create: count('create'), update: count('update'), delete: count('delete') };
}

export function missingSecretsText(references: readonly string[]): string {
  return [
    'Secrets the document references and the collection does not hold:',
    ...references.map((reference) => `  ${reference} (set ${secretEnvName(reference)}, or give it in --secrets-file)`),
  ].join('\n');
}

/** The plan (or, with `applied`, what was done) as text ending in a newline. */
export function renderPlan(plan: DefinitionPlan, { applied = false } = {}): string {
  if (plan.changes.length === 0) {
    const text = applied
      ? 'Nothing changed: the collection already matched the document.'
      : 'No changes: the collection matches the document.';
    return `${text}\n`;
  }
  const { create, update, delete: remove } = counts(plan.changes);
  const summary = applied
    ? `Applied: ${create} created, ${update} updated, ${remove} deleted.`
    : `Plan: ${create} to create, ${update} to update, ${remove} to delete.`;
  const lines = [applied ? 'Changes made:' : 'Changes:', ...plan.changes.flatMap(changeLines), '', summary];
  return `${lines.join('\n')}\n`;
}
