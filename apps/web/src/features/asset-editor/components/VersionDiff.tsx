import { Badge, Box, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { AssetDefinition } from '@datalab/contract/api/asset-versions';
import { sideBySide, versionSections, type DiffRow } from '../model/version-diff.ts';

// Two versions side by side, section by section (SQL or request, parameters, transformations, settings): the
// older on the left, the newer on the right, removed lines red, added lines green, a changed line on both.

const shade: Record<DiffRow['kind'], { left?: string; right?: string }> = {
  same: {},
  changed: { left: 'var(--mantine-color-red-light)', right: 'var(--mantine-color-green-light)' },
  removed: { left: 'var(--mantine-color-red-light)' },
  added: { right: 'var(--mantine-color-green-light)' },
};

function Side({ line, background }: { line: DiffRow['left']; background: string | undefined }) {
  return (
    <>
      <Table.Td w={40} c="dimmed" ta="right" style={{ background, userSelect: 'none' }}>
        {line?.number ?? ''}
      </Table.Td>
      <Table.Td style={{ background, whiteSpace: 'pre-wrap', wordBreak: 'break-word', width: '50%' }}>
        {line?.text ?? ''}
      </Table.Td>
    </>
  );
}

function SectionDiff({ title, before, after }: { title: string; before: string; after: string }) {
  const rows = sideBySide(before, after);
  const changed = rows.filter((r) => r.kind !== 'same').length;
  return (
    <Paper withBorder radius="md" p="sm" aria-label={`${title} differences`} component="section">
      <Group justify="space-between" mb="xs">
        <Title order={4} size="h5">
          {title}
        </Title>
        <Badge variant="light" color={changed === 0 ? 'gray' : 'orange'}>
          {changed === 0 ? 'No change' : `${changed} changed ${changed === 1 ? 'line' : 'lines'}`}
        </Badge>
      </Group>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          None in either version.
        </Text>
      ) : (
        <Box mah={420} style={{ overflow: 'auto' }}>
          <Table ff="monospace" fz="xs" verticalSpacing={2} horizontalSpacing={6} layout="fixed">
            <Table.Tbody>
              {rows.map((row, index) => (
                <Table.Tr key={index} data-diff={row.kind}>
                  <Side line={row.left} background={shade[row.kind].left} />
                  <Side line={row.right} background={shade[row.kind].right} />
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Box>
      )}
    </Paper>
  );
}

export interface VersionDiffProps {
  before: { version: number; definition: AssetDefinition };
  after: { version: number; definition: AssetDefinition };
}

export function VersionDiff({ before, after }: VersionDiffProps) {
  const left = versionSections(before.definition);
  const right = versionSections(after.definition);
  return (
    <Stack gap="md">
      <Group grow>
        <Text fw={600}>Version {before.version}</Text>
        <Text fw={600}>Version {after.version}</Text>
      </Group>
      {left.map((section, index) => (
        <Box key={section.key}>
          <SectionDiff title={section.title} before={section.text} after={right[index]?.text ?? ''} />
        </Box>
      ))}
    </Stack>
  );
}
