import { messages } from '@datalab/contract/messages';
import { DEFAULT_STRING_MAX_LENGTH } from '@datalab/contract/parameters';
import { EngineError } from '../errors.ts';
import { parameterMessages } from './messages.ts';
import { newPatternBudget, patternMismatch, type PatternBudget } from './patterns.ts';
import { compareValues, parseScalar } from './scalars.ts';
import type { ParameterDefinition } from './schema.ts';

// Checks raw values against their definitions before anything runs. Raw values arrive as query-string strings
// (repeated keys → arrays, or one comma list) or as JSON values from a POST body; both are accepted.

export type RawValues = Record<string, unknown>;
export type TypedValues = Record<string, unknown>;
export type ErrorsMap = Record<string, string[]>;

export interface ValidateOptions {
  /**
   * Allowed values for parameters whose options come from a parameter data source: the server runs that data
   * source (with the parent values) and passes the values here. Without an entry, such a parameter is not checked
   * against options.
   */
  options?: Record<string, unknown[]>;
  /**
   * Where a caller finds all the allowed values of a parameter, by name (the server's ParameterData call), said by a
   * refusal that lists only the first of many.
   */
  moreAt?: Record<string, string>;
  /** The labels of `options`, in the same order, for a refusal to show ('FR (France)'). */
  optionLabels?: Record<string, string[]>;
}

export type ValidationResult = { ok: true; values: TypedValues } | { ok: false; errors: ErrorsMap };

function isAbsent(raw: unknown): boolean {
  return raw === undefined || raw === null || raw === '' || (Array.isArray(raw) && raw.length === 0);
}

/** A list's raw items: a JSON array, repeated query keys, or one comma-separated string. */
function listItems(raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  if (typeof raw === 'string')
    return raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
  return [raw];
}

/**
 * A text's length in code points. One of more than 2 × max UTF-16 units is over max whatever it holds (a code point
 * takes at most two), so a long text is not spread into an array just to be refused.
 */
function codePointLength(text: string, max: number): number {
  return text.length > 2 * max ? text.length : [...text].length;
}

function checkString(def: ParameterDefinition, field: string, text: string, budget: PatternBudget): string[] {
  const max = def.max === undefined ? DEFAULT_STRING_MAX_LENGTH : Number(def.max);
  const length = codePointLength(text, max);
  const found: string[] = [];
  if (def.min !== undefined && length < Number(def.min))
    found.push(parameterMessages.lengthAtLeast(field, String(def.min)));
  if (length > max) found.push(parameterMessages.lengthAtMost(field, String(max)));
  // A value of the wrong length is refused already: no pattern work is spent on it.
  if (found.length === 0 && def.pattern !== undefined) {
    const mismatch = patternMismatch(def, def.pattern, field, text, budget);
    if (mismatch !== undefined) found.push(mismatch);
  }
  return found;
}

function checkLimits(def: ParameterDefinition, field: string, value: unknown, budget: PatternBudget): string[] {
  if (def.type === 'string') return checkString(def, field, String(value), budget);
  const found: string[] = [];
  if (def.type === 'boolean') return found;
  const min = def.min === undefined ? undefined : parseScalar(def.type, def.min);
  const max = def.max === undefined ? undefined : parseScalar(def.type, def.max);
  if (min !== undefined && compareValues(def.type, value, min) < 0)
    found.push(parameterMessages.atLeast(field, String(def.min)));
  if (max !== undefined && compareValues(def.type, value, max) > 0)
    found.push(parameterMessages.atMost(field, String(def.max)));
  return found;
}

function sameOption(def: ParameterDefinition, option: unknown, value: unknown): boolean {
  const typed = parseScalar(
    def.type,
    typeof option === 'number' || typeof option === 'boolean' ? option : String(option),
  );
  if (typed === undefined) return false;
  return def.type === 'string' || def.type === 'boolean'
    ? typed === value
    : compareValues(def.type, typed, value) === 0;
}

/** The allowed values of a parameter and how a refusal shows them ('1 (Europe)' when a fixed option has a label). */
interface Allowed {
  values: unknown[];
  shown: string[];
  moreAt: string | undefined;
}

const withLabel = (value: unknown, label: string | undefined) =>
  label === undefined || label === String(value) ? String(value) : `${String(value)} (${label})`;

function allowedOptions(def: ParameterDefinition, options: ValidateOptions): Allowed | undefined {
  const moreAt = options.moreAt?.[def.name];
  if (def.allowedValues?.kind === 'fixed') {
    const fixed = def.allowedValues.options;
    const shown = fixed.map((o) => withLabel(o.value, o.label));
    return { values: fixed.map((option) => option.value), shown, moreAt };
  }
  const values = options.options?.[def.name];
  if (!values) return undefined;
  const labels = options.optionLabels?.[def.name];
  return { values, shown: values.map((value, i) => withLabel(value, labels?.[i])), moreAt };
}

/** What checking one parameter's items needs besides the item: its options and the call's pattern budget. */
interface ItemContext {
  field: string;
  allowed: Allowed | undefined;
  budget: PatternBudget;
}

/** One item: its typed value and its messages. */
function checkItem(def: ParameterDefinition, raw: unknown, { field, allowed, budget }: ItemContext) {
  const value = parseScalar(def.type, raw);
  if (value === undefined) return { value, errors: [parameterMessages.wrongType(field, def.type)] };
  const errors = checkLimits(def, field, value, budget);
  if (allowed && !allowed.values.some((option) => sameOption(def, option, value))) {
    errors.push(parameterMessages.notAllowed(field, String(raw), allowed.shown, allowed.moreAt));
  }
  return { value, errors };
}

function checkOne(
  def: ParameterDefinition,
  raw: unknown,
  options: ValidateOptions,
  budget: PatternBudget,
): { value: unknown; errors: string[] } {
  const context: ItemContext = { field: def.label ?? def.name, allowed: allowedOptions(def, options), budget };
  if (!def.list) {
    if (Array.isArray(raw)) return { value: undefined, errors: [parameterMessages.wrongType(context.field, def.type)] };
    return checkItem(def, raw, context);
  }
  const values: unknown[] = [];
  const errors = new Set<string>();
  for (const item of listItems(raw)) {
    const checked = checkItem(def, item, context);
    values.push(checked.value);
    checked.errors.forEach((message) => errors.add(message));
  }
  return { value: values, errors: [...errors] };
}

export function validateParameters(
  definitions: readonly ParameterDefinition[],
  rawValues: RawValues,
  options: ValidateOptions = {},
): ValidationResult {
  const values: TypedValues = {};
  const errors: ErrorsMap = {};
  const budget = newPatternBudget();
  for (const def of definitions) {
    let raw = Object.hasOwn(rawValues, def.name) ? rawValues[def.name] : undefined;
    if (isAbsent(raw)) raw = def.default;
    if (isAbsent(raw)) {
      if (def.required) errors[def.name] = [messages.required(def.label ?? def.name)];
      else values[def.name] = def.list ? [] : null;
      continue;
    }
    const checked = checkOne(def, raw, options, budget);
    if (checked.errors.length > 0) errors[def.name] = checked.errors;
    else values[def.name] = checked.value;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, values };
}

/** validateParameters that throws an EngineError('INVALID_PARAMETERS') carrying the errors map. */
export function assertParameters(
  definitions: readonly ParameterDefinition[],
  rawValues: RawValues,
  options?: ValidateOptions,
): TypedValues {
  const result = validateParameters(definitions, rawValues, options);
  if (!result.ok) throw new EngineError('INVALID_PARAMETERS', undefined, { errors: result.errors });
  return result.values;
}
