import { MultiSelect, Select } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { useParameterData } from '../api/get-parameter-data.ts';
import { parameterLabel, parentsOf, type FormParameter } from '../parameters/definition.ts';
import { parentQuery, type FormValue, type FormValues } from '../parameters/form-values.ts';

// A parameter whose allowed values are a list: fixed in the definition, or read from its parameter data source
// with its parents' current values (dependent dropdowns). When the parents change, the options reload and a value
// the new options no longer allow is cleared.

interface OptionsFieldProps {
  parameter: FormParameter;
  value: FormValue;
  values: FormValues;
  error?: string;
  onChange: (value: FormValue) => void;
}

interface Option {
  value: string;
  label: string;
}

function SelectInput({
  parameter,
  value,
  error,
  onChange,
  options,
  disabled,
  placeholder,
}: Omit<OptionsFieldProps, 'values'> & {
  options: Option[];
  disabled?: boolean;
  placeholder?: string;
}) {
  const common = {
    label: parameterLabel(parameter),
    description: parameter.description,
    required: parameter.required,
    error,
    data: options,
    disabled,
    placeholder,
    searchable: true,
    nothingFoundMessage: 'No matching option',
  };
  if (parameter.list) {
    return <MultiSelect {...common} value={Array.isArray(value) ? value : []} onChange={onChange} clearable />;
  }
  return (
    <Select
      {...common}
      value={typeof value === 'string' && value !== '' ? value : null}
      onChange={(next) => onChange(next ?? '')}
      clearable
    />
  );
}

function FromDataSource(props: OptionsFieldProps) {
  const { parameter, value, values, onChange } = props;
  const parents = parentsOf(parameter);
  const query = parentQuery(parents, values);
  const missingParents = parents.filter((name) => query[name] === undefined);
  const data = useParameterData(parameter.id, query, missingParents.length === 0);
  const options = useMemo(
    () => (data.data?.options ?? []).map((option) => ({ value: String(option.value), label: option.label })),
    [data.data],
  );

  useEffect(() => {
    if (data.isPlaceholderData || !data.data) return;
    const allowed = new Set(options.map((option) => option.value));
    if (Array.isArray(value)) {
      const kept = value.filter((item) => allowed.has(item));
      if (kept.length !== value.length) onChange(kept);
    } else if (typeof value === 'string' && value !== '' && !allowed.has(value)) {
      onChange('');
    }
  }, [data.data, data.isPlaceholderData, options, value, onChange]);

  if (missingParents.length > 0) {
    return <SelectInput {...props} options={[]} disabled placeholder={`Choose ${missingParents.join(', ')} first`} />;
  }
  const placeholder = data.isFetching
    ? 'Loading options…'
    : data.isError
      ? 'The options could not be loaded'
      : undefined;
  return <SelectInput {...props} options={options} placeholder={placeholder} />;
}

export function OptionsField(props: OptionsFieldProps) {
  const allowed = props.parameter.allowedValues;
  if (allowed?.kind === 'fixed') {
    const options = allowed.options.map((option) => ({
      value: String(option.value),
      label: option.label ?? String(option.value),
    }));
    return <SelectInput {...props} options={options} />;
  }
  return <FromDataSource {...props} />;
}
