import type { AllowedValues, ParameterDefinitionInput, ParameterType } from '@datalab/contract/parameters';
import { parameterDefinitionsSchema } from '@datalab/contract/parameters';
import { messages } from '@datalab/contract/messages';
import { definitionsOf, type ParameterDraft } from './asset-draft.ts';

// The parameter card's fields beyond name, label, type, list, required and default: they live in the draft's `rest`
// exactly as stored, so an asset saved without a change sends what it received (a bound stays a number or a text
// as it was). Checked live with the contract's own schema, as the server checks them on save.

export type AllowedValuesInput = NonNullable<ParameterDefinitionInput['allowedValues']>;
export type FixedOption = Extract<AllowedValues, { kind: 'fixed' }>['options'][number];
export type SourceInput = Extract<AllowedValuesInput, { kind: 'dataSource' }>;
export type AllowedKind = 'any' | 'fixed' | 'dataSource';

/** What min and max bound: a string's length, a number's or a date's value; a boolean has none. */
export function boundsOf(type: ParameterType): 'length' | 'value' | 'none' {
  if (type === 'boolean') return 'none';
  return type === 'string' ? 'length' : 'value';
}

const isNumeric = (type: ParameterType) => type === 'integer' || type === 'decimal';

/** A bound as typed: a number where the type counts (lengths, numbers), the text for dates; empty: no bound. */
export function boundValue(type: ParameterType, text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (boundsOf(type) === 'length' || isNumeric(type)) {
    const number = Number(trimmed);
    return Number.isFinite(number) ? number : trimmed;
  }
  return trimmed;
}

/** A fixed option's value as typed: numbers and booleans as such, so that it compares with a caller's value. */
export function optionValue(type: ParameterType, text: string): string | number | boolean {
  if (isNumeric(type) && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

export const textOf = (value: unknown) => (value === undefined || value === null ? '' : String(value));

export function allowedKindOf(draft: ParameterDraft): AllowedKind {
  return draft.rest.allowedValues?.kind ?? 'any';
}

/** The draft with one of its `rest` fields set, or removed when undefined. */
export function withRest<K extends keyof ParameterDraft['rest']>(
  draft: ParameterDraft,
  key: K,
  value: ParameterDraft['rest'][K] | undefined,
): ParameterDraft {
  const rest = { ...draft.rest };
  if (value === undefined) delete rest[key];
  else rest[key] = value;
  return { ...draft, rest };
}

/** Switching where the values come from starts that kind empty (one blank option, or no asset yet). */
export function allowedValuesFor(kind: AllowedKind): AllowedValuesInput | undefined {
  if (kind === 'fixed') return { kind: 'fixed', options: [{ value: '' }] };
  if (kind === 'dataSource') return { kind: 'dataSource', dataSourceId: '', valueColumn: '', labelColumn: '' };
  return undefined;
}

/** Field errors by key `index.path` ('1.allowedValues.dependsOn'), as the save call would report them. */
export function parameterIssues(parameters: readonly ParameterDraft[]): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  const add = (key: string, message: string) => (found[key] ??= []).push(message);
  const parsed = parameterDefinitionsSchema.safeParse(definitionsOf(parameters));
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const path = issue.path.map(String);
    const [index, field, sub] = path;
    if (field === 'allowedValues' && sub === undefined) continue; // said below, per field
    if (field === 'allowedValues' && (sub === 'dataSourceId' || sub === 'valueColumn' || sub === 'labelColumn')) {
      if (issue.code === 'too_small' || issue.code === 'invalid_union') {
        add(path.join('.'), messages.required(sub === 'dataSourceId' ? 'A data asset' : 'A column'));
        continue;
      }
    }
    if (field === 'allowedValues' && sub === 'options' && issue.code === 'too_small') {
      add(path.join('.'), messages.atLeastOne('allowed value'));
      continue;
    }
    if (field === 'name' && issue.code === 'invalid_format') {
      add(`${index}.name`, 'A name starts with a letter or _ and has only letters, digits and _');
      continue;
    }
    add(path.join('.'), issue.message);
  }
  parameters.forEach((p, index) => {
    const allowed = p.rest.allowedValues;
    if (allowed?.kind !== 'fixed') return;
    allowed.options.forEach((option, i) => {
      if (String(option.value).trim() === '')
        add(`${index}.allowedValues.options.${i}.value`, messages.required('A value'));
    });
  });
  return found;
}
