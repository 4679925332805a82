import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { monoInput } from './mono-input.ts';
import { newRow, repeatedNames, type KeyValueRow } from './key-value.ts';

interface KeyValueEditorProps {
  /** What one row is, for labels: 'header', 'query parameter'. */
  item: string;
  rows: readonly KeyValueRow[];
  onChange: (rows: KeyValueRow[]) => void;
  /** Shown under the list, e.g. how placeholders work. */
  hint?: string;
  /** HTTP header names compare without case. */
  ignoreCase?: boolean;
  valuePlaceholder?: string;
  /** The server's messages about this list. */
  error?: string;
}

/** An ordered list of name/value pairs with add and remove. */
export function KeyValueEditor(props: KeyValueEditorProps) {
  const { item, rows, onChange, hint, ignoreCase = false, valuePlaceholder, error } = props;
  const update = (index: number, change: Partial<KeyValueRow>) =>
    onChange(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const repeated = repeatedNames(rows, ignoreCase);
  return (
    <Stack gap="xs">
      {rows.map((row, index) => {
        const label = row.name.trim() || `${item} ${index + 1}`;
        return (
          <Group key={row.key} gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              aria-label={`Name of ${item} ${index + 1}`}
              placeholder="Name"
              value={row.name}
              w="35%"
              styles={monoInput}
              onChange={(e) => update(index, { name: e.currentTarget.value })}
            />
            <TextInput
              aria-label={`Value of ${item} ${index + 1}`}
              placeholder={valuePlaceholder ?? 'Value'}
              value={row.value}
              style={{ flex: 1 }}
              styles={monoInput}
              onChange={(e) => update(index, { value: e.currentTarget.value })}
            />
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={`Remove ${item} ${label}`}
              onClick={() => onChange(rows.filter((_, i) => i !== index))}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        );
      })}
      {repeated.length > 0 ? (
        <Text size="sm" c="red.9">
          Given more than once (the last one is sent): {repeated.join(', ')}
        </Text>
      ) : null}
      {error ? (
        <Text size="sm" c="red.9">
          {error}
        </Text>
      ) : null}
      <Group gap="sm">
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} />}
          onClick={() => onChange([...rows, newRow()])}
        >
          Add {item}
        </Button>
        {hint ? (
          <Text size="xs" c="dimmed">
            {hint}
          </Text>
        ) : null}
      </Group>
    </Stack>
  );
}
