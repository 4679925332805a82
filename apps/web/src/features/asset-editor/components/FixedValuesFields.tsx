import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import type { ParameterType } from '@datalab/contract/parameters';
import { optionValue, textOf, type FixedOption } from '../model/parameter-fields.ts';

interface FixedValuesFieldsProps {
  name: string;
  type: ParameterType;
  options: readonly FixedOption[];
  errorAt: (path: string) => string | undefined;
  onChange: (options: FixedOption[]) => void;
}

/** The allowed values as a list the editor writes: value and label, added, removed and put in order. */
export function FixedValuesFields({ name, type, options, errorAt, onChange }: FixedValuesFieldsProps) {
  const set = (index: number, change: Partial<FixedOption>) =>
    onChange(options.map((option, i) => (i === index ? withLabel({ ...option, ...change }) : option)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...options];
    const [moved] = next.splice(index, 1);
    if (moved) next.splice(index + by, 0, moved);
    onChange(next);
  };
  return (
    <Stack gap={6} role="group" aria-label={`Allowed values of ${name}`}>
      {options.map((option, index) => {
        const position = `${index + 1}`;
        return (
          <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              aria-label={`Value ${position} of ${name}`}
              placeholder="Value"
              value={textOf(option.value)}
              error={errorAt(`allowedValues.options.${index}.value`)}
              onChange={(e) => set(index, { value: optionValue(type, e.currentTarget.value) })}
              style={{ flex: 1 }}
            />
            <TextInput
              aria-label={`Label ${position} of ${name}`}
              placeholder="Label (optional)"
              value={option.label ?? ''}
              onChange={(e) => set(index, { label: e.currentTarget.value })}
              style={{ flex: 1 }}
            />
            <ActionIcon
              variant="subtle"
              aria-label={`Move value ${position} of ${name} up`}
              disabled={index === 0}
              onClick={() => move(index, -1)}
              mt={4}
            >
              <IconArrowUp size={16} />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              aria-label={`Move value ${position} of ${name} down`}
              disabled={index === options.length - 1}
              onClick={() => move(index, 1)}
              mt={4}
            >
              <IconArrowDown size={16} />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Remove value ${position} of ${name}`}
              disabled={options.length === 1}
              onClick={() => onChange(options.filter((_, i) => i !== index))}
              mt={4}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        );
      })}
      {errorAt('allowedValues.options') ? (
        <Text size="xs" c="red">
          {errorAt('allowedValues.options')}
        </Text>
      ) : null}
      <Group>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlus size={14} />}
          onClick={() => onChange([...options, { value: '' }])}
        >
          Add a value
        </Button>
      </Group>
    </Stack>
  );
}

/** An empty label is no label: the value is shown instead. */
function withLabel(option: FixedOption): FixedOption {
  if (option.label !== undefined && option.label !== '') return option;
  const { label: _label, ...rest } = option;
  return rest;
}
