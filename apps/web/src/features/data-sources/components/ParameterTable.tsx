import { Table, Text } from '@mantine/core';
import { texts } from '@datalab/contract/texts';
import { parameterLabel, parentsOf, type FormParameter } from '../parameters/definition.ts';

function allowedText(parameter: FormParameter): string {
  const allowed = parameter.allowedValues;
  if (!allowed) return 'Any';
  if (allowed.kind === 'fixed') return allowed.options.map((option) => option.label ?? String(option.value)).join(', ');
  const parents = parentsOf(parameter);
  return parents.length > 0
    ? `From a parameter data source, after ${parents.join(', ')}`
    : 'From a parameter data source';
}

function limitsText(parameter: FormParameter): string {
  const parts = [];
  if (parameter.min !== undefined) parts.push(`min ${parameter.min}`);
  if (parameter.max !== undefined) parts.push(`max ${parameter.max}`);
  if (parameter.pattern) parts.push(`matches ${parameter.pattern}`);
  return parts.length > 0 ? parts.join(', ') : texts.none;
}

/** An asset's parameters as the calling layer takes them. */
export function ParameterTable({ parameters }: { parameters: readonly FormParameter[] }) {
  if (parameters.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        This data asset takes no parameters.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Required</Table.Th>
            <Table.Th>Default</Table.Th>
            <Table.Th>Allowed values</Table.Th>
            <Table.Th>Limits</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {parameters.map((parameter) => (
            <Table.Tr key={parameter.name}>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {parameter.name}
                </Text>
                <Text size="xs" c="dimmed">
                  {parameterLabel(parameter)}
                  {parameter.description ? ` — ${parameter.description}` : ''}
                </Text>
              </Table.Td>
              <Table.Td>{parameter.list ? `list of ${parameter.type}` : parameter.type}</Table.Td>
              <Table.Td>{parameter.required ? 'Yes' : 'No'}</Table.Td>
              <Table.Td>{parameter.default === undefined ? texts.notSet : JSON.stringify(parameter.default)}</Table.Td>
              <Table.Td>{allowedText(parameter)}</Table.Td>
              <Table.Td>{limitsText(parameter)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
