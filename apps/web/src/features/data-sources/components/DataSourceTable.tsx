import { Anchor, Badge, Group, Table, Text, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import type { DataSourceSummary } from '@datalab/contract/api/data-sources';
import { paths } from '@datalab/contract/paths';
import { texts } from '@datalab/contract/texts';
import { RoleBadge } from '../../../components/roles/RoleBadge.tsx';
import { formatDateTime, plural } from '../../../lib/format.ts';

export const kindLabels = { sql: 'SQL', webapi: 'Web API' } as const;

/** Assets as rows: name (to the asset), collection, kind, connection, parameters, the caller's role, a Call link. */
export function DataSourceTable({ dataSources }: { dataSources: readonly DataSourceSummary[] }) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Collection</Table.Th>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Connection</Table.Th>
            <Table.Th>Parameters</Table.Th>
            <Table.Th>Your role</Table.Th>
            <Table.Th>Changed</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {dataSources.map((asset) => (
            <Table.Tr key={asset.uid}>
              <Table.Td>
                <Anchor component={Link} to={paths.dataSource(asset.uid)} fw={600}>
                  {asset.name}
                </Anchor>
                {asset.description ? (
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {asset.description}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={paths.collection(asset.collection.uid)} size="sm">
                  {asset.collection.name}
                </Anchor>
              </Table.Td>
              <Table.Td>
                {/* A badge clips its label when the table squeezes its column: this one keeps its whole text. */}
                <Badge variant="light" color="gray" miw="max-content">
                  {kindLabels[asset.kind]}
                </Badge>
              </Table.Td>
              <Table.Td>{asset.connectionName ?? texts.notSet}</Table.Td>
              <Table.Td>{asset.parameterCount === 0 ? texts.none : plural(asset.parameterCount, 'parameter')}</Table.Td>
              <Table.Td>
                <RoleBadge role={asset.myRole} size="sm" />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatDateTime(asset.updatedAt)}</Text>
              </Table.Td>
              <Table.Td>
                <Group justify="flex-end">
                  <Anchor
                    component={Link}
                    to={paths.dataSourceCall(asset.uid)}
                    size="sm"
                    aria-label={`Call ${asset.name}`}
                  >
                    Call
                  </Anchor>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
