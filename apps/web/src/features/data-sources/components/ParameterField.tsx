import { NumberInput, Switch, TagsInput, TextInput } from '@mantine/core';
import { DEFAULT_STRING_MAX_LENGTH } from '@datalab/contract/parameters';
import { parameterLabel, type FormParameter } from '../parameters/definition.ts';
import type { FormValue, FormValues } from '../parameters/form-values.ts';
import { OptionsField } from './OptionsField.tsx';

// One parameter's input, typed by its definition: text, whole or decimal numbers, a switch, native date and
// date-time pickers, a list of values, or a choice among allowed values. Each input carries the definition's
// bounds (numbers and dates: the value's; text: its length), so it does not take what the server refuses.

export interface ParameterFieldProps {
  parameter: FormParameter;
  value: FormValue;
  values: FormValues;
  error?: string;
  onChange: (value: FormValue) => void;
}

const numeric = (limit: number | string | undefined) => (limit === undefined ? undefined : Number(limit));

/** A date bound as a date input takes it: 'YYYY-MM-DD'. */
const dateBound = (limit: number | string | undefined) =>
  typeof limit === 'string' && /^\d{4}-\d{2}-\d{2}/u.test(limit) ? limit.slice(0, 10) : undefined;

/** A date-time bound as a datetime-local input takes it: 'YYYY-MM-DDTHH:mm' (UTC, as the server compares). */
function dateTimeBound(limit: number | string | undefined): string | undefined {
  if (typeof limit !== 'string') return undefined;
  const date = new Date(limit);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().slice(0, 16);
}

/** A string's length bound: the definition's, else the server's default for every string. */
const lengthBound = (limit: number | string | undefined) =>
  typeof limit === 'number' ? limit : DEFAULT_STRING_MAX_LENGTH;

export function ParameterField(props: ParameterFieldProps) {
  const { parameter, value, error, onChange } = props;
  if (parameter.allowedValues) return <OptionsField {...props} />;
  const common = {
    label: parameterLabel(parameter),
    description: parameter.description,
    required: parameter.required,
    error,
  };
  const text = typeof value === 'string' ? value : '';

  if (parameter.list) {
    return (
      <TagsInput
        {...common}
        value={Array.isArray(value) ? value : []}
        onChange={onChange}
        placeholder="Type a value and press Enter"
      />
    );
  }
  switch (parameter.type) {
    case 'boolean':
      return (
        <Switch
          label={common.label}
          description={common.description}
          error={error}
          checked={value === true}
          onChange={(event) => onChange(event.currentTarget.checked)}
        />
      );
    case 'integer':
    case 'decimal':
      return (
        <NumberInput
          {...common}
          value={text}
          onChange={(next) => onChange(String(next))}
          allowDecimal={parameter.type === 'decimal'}
          min={numeric(parameter.min)}
          max={numeric(parameter.max)}
        />
      );
    case 'date':
      return (
        <TextInput
          {...common}
          type="date"
          value={text}
          min={dateBound(parameter.min)}
          max={dateBound(parameter.max)}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
    case 'date-time':
      return (
        <TextInput
          {...common}
          type="datetime-local"
          value={text}
          min={dateTimeBound(parameter.min)}
          max={dateTimeBound(parameter.max)}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
    default:
      return (
        <TextInput
          {...common}
          value={text}
          maxLength={lengthBound(parameter.max)}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
  }
}
