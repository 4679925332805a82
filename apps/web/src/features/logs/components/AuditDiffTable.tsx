import { Table, Text } from '@mantine/core';
import { auditDiff, type DiffChange } from '../model/audit-diff.ts';

const changeLabels: Record<DiffChange, string> = {
  added: 'Added',
  removed: 'Removed',
  changed: 'Changed',
  unchanged: 'Unchanged',
};

function Value({ value }: { value: string | undefined }) {
  if (value === undefined) return <Text size="sm">—</Text>;
  if (value === '') return <Text size="sm">(empty)</Text>;
  return (
    <Text size="sm" ff="monospace" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
      {value}
    </Text>
  );
}

/** An audit's values before and after, field by field; what changed comes first and says so in words. */
export function AuditDiffTable({ before, after }: { before: unknown; after: unknown }) {
  const rows = auditDiff(before, after).sort(
    (a, b) => Number(a.change === 'unchanged') - Number(b.change === 'unchanged'),
  );
  if (rows.length === 0) return <Text size="sm">No values were recorded.</Text>;
  return (
    <Table aria-label="Values before and after" withTableBorder verticalSpacing="xs">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Field</Table.Th>
          <Table.Th>Before</Table.Th>
          <Table.Th>After</Table.Th>
          <Table.Th>Change</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.field} fw={row.change === 'unchanged' ? undefined : 600}>
            <Table.Td>
              <Text size="sm" ff="monospace" inherit>
                {row.field}
              </Text>
            </Table.Td>
            <Table.Td>
              <Value value={row.before} />
            </Table.Td>
            <Table.Td>
              <Value value={row.after} />
            </Table.Td>
            <Table.Td>
              <Text size="sm" inherit>
                {changeLabels[row.change]}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
