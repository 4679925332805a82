import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { newParameter, parameterTypes, type ParameterDraft } from '../model/asset-draft.ts';
import type { PlaceholderSyntax } from '../model/placeholders.ts';

const TYPE_OPTIONS = parameterTypes.map((type) => ({ value: type, label: type }));

interface ParameterDefinitionsProps {
  parameters: readonly ParameterDraft[];
  /** The names the SQL or the request uses, in order. */
  detected: readonly string[];
  /** How the source marks a parameter (`:name` in SQL, `{name}` in a request). */
  syntax: PlaceholderSyntax;
  onChange: (parameters: ParameterDraft[]) => void;
}

const emptyHints: Record<PlaceholderSyntax['source'], ReactNode> = {
  SQL: (
    <>
      No parameters. Write <code>:name</code> in the SQL where a caller&apos;s value goes; it is bound by the driver,
      never pasted into the text.
    </>
  ),
  request: (
    <>
      No parameters. Write <code>{'{name}'}</code> in the path, a query parameter, a header or the body where a
      caller&apos;s value goes; it is encoded so that it can never change the host or the path.
    </>
  ),
};

/** The parameters found in the source, offered for definition, and the definitions with their type and default. */
export function ParameterDefinitions({ parameters, detected, syntax, onChange }: ParameterDefinitionsProps) {
  const defined = new Set(parameters.map((p) => p.name));
  const undefinedNames = detected.filter((name) => !defined.has(name));
  const update = (index: number, change: Partial<ParameterDraft>) =>
    onChange(parameters.map((p, i) => (i === index ? { ...p, ...change } : p)));

  return (
    <Stack gap="sm">
      {undefinedNames.length > 0 ? (
        <Group gap="xs" role="group" aria-label={`Parameters found in the ${syntax.source}, not defined yet`}>
          <Text size="sm">Used in the {syntax.source}, not defined yet:</Text>
          {undefinedNames.map((name) => (
            <Button
              key={name}
              size="xs"
              variant="light"
              leftSection={<IconPlus size={14} />}
              onClick={() => onChange([...parameters, newParameter(name)])}
            >
              Define {syntax.mark(name)}
            </Button>
          ))}
        </Group>
      ) : null}
      {parameters.length === 0 ? (
        <Text size="sm" c="dimmed">
          {emptyHints[syntax.source]}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Label</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>List</Table.Th>
                <Table.Th>Required</Table.Th>
                <Table.Th>Default</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Remove</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {parameters.map((p, index) => (
                <Table.Tr key={p.name}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Text ff="monospace" size="sm">
                        {syntax.mark(p.name)}
                      </Text>
                      {detected.includes(p.name) ? null : (
                        <Badge size="xs" color="red" variant="light">
                          not in the {syntax.source}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      aria-label={`Label of ${p.name}`}
                      value={p.label}
                      onChange={(e) => update(index, { label: e.currentTarget.value })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Select
                      aria-label={`Type of ${p.name}`}
                      data={TYPE_OPTIONS}
                      value={p.type}
                      allowDeselect={false}
                      onChange={(value) => update(index, { type: parameterTypes.find((t) => t === value) ?? p.type })}
                      w={130}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      aria-label={`${p.name} is a list`}
                      checked={p.list}
                      onChange={(e) => update(index, { list: e.currentTarget.checked })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      aria-label={`${p.name} is required`}
                      checked={p.required}
                      onChange={(e) => update(index, { required: e.currentTarget.checked })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      aria-label={`Default of ${p.name}`}
                      value={p.defaultText}
                      onChange={(e) => update(index, { defaultText: e.currentTarget.value })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`Remove ${p.name}`}
                      onClick={() => onChange(parameters.filter((_, i) => i !== index))}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
