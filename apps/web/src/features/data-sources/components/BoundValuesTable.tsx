import { Badge, Group, Table, Text } from '@mantine/core';
import type { ParameterBinding } from '@datalab/contract/api/data-sources';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { useBoundValues } from '../api/get-bound-values.ts';
import type { FormParameter } from '../parameters/definition.ts';

// The values bound to the SQL's placeholders, shown apart from the SQL (the driver binds them; they are never
// spliced in), as the server typed them from the values sent: numbers, exact decimal text, dates as ISO text, lists.

const typeText = (binding: ParameterBinding) => (binding.list ? `list of ${binding.type}` : binding.type);

interface NotesProps {
  binding: ParameterBinding;
  sent: object;
  parameter?: FormParameter;
  /** A Web API asset's placeholders: whether its request uses the parameter (the server answers for SQL). */
  usedByRequest?: ReadonlySet<string>;
}

function Notes({ binding, sent, parameter, usedByRequest }: NotesProps) {
  const isDefault = !Object.hasOwn(sent, binding.name) && parameter?.default !== undefined;
  const isUsed = usedByRequest ? usedByRequest.has(binding.name) : binding.inSql;
  return (
    <Group gap={4}>
      {isDefault ? (
        <Badge variant="light" color="gray" size="sm">
          Default
        </Badge>
      ) : null}
      {isUsed ? null : (
        <Badge variant="light" color="orange" size="sm">
          {usedByRequest ? 'Not used by the request' : 'Not used by the SQL'}
        </Badge>
      )}
    </Group>
  );
}

export function BoundValuesTable({
  uid,
  sent,
  parameters,
  usedByRequest,
}: {
  uid: string;
  sent: Record<string, unknown>;
  parameters: readonly FormParameter[];
  usedByRequest?: ReadonlySet<string> | undefined;
}) {
  const bound = useBoundValues(uid, sent);
  if (bound.isPending) return <Text size="sm">Reading the bound values…</Text>;
  if (bound.isError) return <InlineError error={bound.error} />;
  const { bindings } = bound.data;
  if (bindings.length === 0) return <Text size="sm">This data asset takes no parameters: nothing is bound.</Text>;
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Parameter</Table.Th>
            <Table.Th>Bound value</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Notes</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {bindings.map((binding) => (
            <Table.Tr key={binding.name}>
              <Table.Td ff="monospace">{usedByRequest ? `{${binding.name}}` : `:${binding.name}`}</Table.Td>
              <Table.Td ff="monospace">{JSON.stringify(binding.value)}</Table.Td>
              <Table.Td>{typeText(binding)}</Table.Td>
              <Table.Td>
                <Notes
                  binding={binding}
                  sent={sent}
                  parameter={parameters.find((parameter) => parameter.name === binding.name)}
                  usedByRequest={usedByRequest}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
