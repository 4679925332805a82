import { Alert, Badge, Code, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import type { DefinitionChange, DefinitionDifference } from '@datalab/contract/api/definitions';
import { actionColors, actionLabels, groupByKind, shownValue } from '../model/plan-view.ts';

// A plan as a reviewer reads it: the changes grouped by kind, each with its action as a badge, and for an update
// every field that differs with its value before and after, side by side.

function Value({ value }: { value: unknown }) {
  const shown = shownValue(value);
  if (shown.isAbsent)
    return (
      <Text size="sm" c="dimmed" fs="italic">
        {shown.text}
      </Text>
    );
  if (shown.isBlock)
    return (
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {shown.text}
      </Code>
    );
  return (
    <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} fz="sm">
      {shown.text}
    </Code>
  );
}

function Differences({ change }: { change: DefinitionChange }) {
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table
        layout="fixed"
        verticalSpacing={6}
        aria-label={`Fields of ${change.name} that change`}
        withRowBorders
        style={{ tableLayout: 'fixed' }}
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th w="26%">Field</Table.Th>
            <Table.Th>Before</Table.Th>
            <Table.Th>After</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {change.differences.map((difference: DefinitionDifference) => (
            <Table.Tr key={difference.path}>
              <Table.Td style={{ verticalAlign: 'top', wordBreak: 'break-word' }}>
                <Text size="sm" ff="monospace">
                  {difference.path}
                </Text>
              </Table.Td>
              <Table.Td style={{ verticalAlign: 'top' }} bg="var(--mantine-color-red-light)">
                <Value value={difference.before} />
              </Table.Td>
              <Table.Td style={{ verticalAlign: 'top' }} bg="var(--mantine-color-teal-light)">
                <Value value={difference.after} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ChangeItem({ change }: { change: DefinitionChange }) {
  return (
    <Paper withBorder radius="sm" p="sm" component="li" aria-label={`${actionLabels[change.action]} ${change.name}`}>
      <Stack gap="xs">
        <Group gap="sm" wrap="nowrap">
          <Badge color={actionColors[change.action]} variant="light" style={{ flexShrink: 0 }}>
            {actionLabels[change.action]}
          </Badge>
          <Text fw={600} size="sm" style={{ wordBreak: 'break-word' }}>
            {change.name}
          </Text>
        </Group>
        {change.action === 'update' && change.differences.length > 0 ? <Differences change={change} /> : null}
      </Stack>
    </Paper>
  );
}

export function NothingToChange({ isApplied = false }: { isApplied?: boolean }) {
  return (
    <Alert color="teal" variant="light" icon={<IconCircleCheck size={18} />} title="Nothing to change">
      {isApplied
        ? 'The collection already matched the document: nothing was changed.'
        : 'The collection already matches this document: applying it would change nothing.'}
    </Alert>
  );
}

export function PlanDiff({
  changes,
  isApplied = false,
}: {
  changes: readonly DefinitionChange[];
  isApplied?: boolean;
}) {
  if (changes.length === 0) return <NothingToChange isApplied={isApplied} />;
  return (
    <Stack gap="md">
      {groupByKind(changes).map((group) => (
        <section key={group.kind} aria-label={group.label}>
          <Title order={3} fz="h5" mb={6}>
            {group.label} ({group.changes.length})
          </Title>
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {group.changes.map((change) => (
              <ChangeItem key={`${change.kind}:${change.name}`} change={change} />
            ))}
          </Stack>
        </section>
      ))}
    </Stack>
  );
}
