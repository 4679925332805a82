import { NumberInput, Switch, TagsInput, TextInput } from '@mantine/core';
import { parameterLabel, type FormParameter } from '../parameters/definition.ts';
import type { FormValue, FormValues } from '../parameters/form-values.ts';
import { OptionsField } from './OptionsField.tsx';

// One parameter's input, typed by its definition: text, whole or decimal numbers, a switch, native date and
// date-time pickers, a list of values, or a choice among allowed values.

export interface ParameterFieldProps {
  parameter: FormParameter;
  value: FormValue;
  values: FormValues;
  error?: string;
  onChange: (value: FormValue) => void;
}

const numeric = (limit: number | string | undefined) => (limit === undefined ? undefined : Number(limit));

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
        <TextInput {...common} type="date" value={text} onChange={(event) => onChange(event.currentTarget.value)} />
      );
    case 'date-time':
      return (
        <TextInput
          {...common}
          type="datetime-local"
          value={text}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
    default:
      return <TextInput {...common} value={text} onChange={(event) => onChange(event.currentTarget.value)} />;
  }
}
