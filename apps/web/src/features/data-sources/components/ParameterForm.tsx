import { Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useCallback, type FormEvent, type ReactNode } from 'react';
import type { FormParameter } from '../parameters/definition.ts';
import type { FormValue, FormValues } from '../parameters/form-values.ts';
import { ParameterField } from './ParameterField.tsx';

// The form generated from an asset's parameters. The server's messages (a 400's errors map, keyed by parameter
// name) show under each field.

export interface ParameterFormProps {
  parameters: readonly FormParameter[];
  values: FormValues;
  errors: Record<string, string[]>;
  isRunning: boolean;
  onChange: (name: string, value: FormValue) => void;
  onSubmit: () => void;
  actions?: ReactNode;
}

function Field({
  parameter,
  values,
  errors,
  onChange,
}: Pick<ParameterFormProps, 'values' | 'errors' | 'onChange'> & { parameter: FormParameter }) {
  const handleChange = useCallback((value: FormValue) => onChange(parameter.name, value), [onChange, parameter.name]);
  return (
    <ParameterField
      parameter={parameter}
      value={values[parameter.name] ?? ''}
      values={values}
      error={errors[parameter.name]?.join(' ')}
      onChange={handleChange}
    />
  );
}

export function ParameterForm({
  parameters,
  values,
  errors,
  isRunning,
  onChange,
  onSubmit,
  actions,
}: ParameterFormProps) {
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form onSubmit={handleSubmit} aria-label="Parameters" noValidate>
      <Stack gap="md">
        {parameters.length === 0 ? (
          <Text c="dimmed" size="sm">
            This data asset takes no parameters.
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {parameters.map((parameter) => (
              <Field key={parameter.name} parameter={parameter} values={values} errors={errors} onChange={onChange} />
            ))}
          </SimpleGrid>
        )}
        <Group>
          <Button type="submit" loading={isRunning} leftSection={<IconPlayerPlay size={16} />}>
            Call
          </Button>
          {actions}
        </Group>
      </Stack>
    </form>
  );
}
