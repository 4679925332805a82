import { Anchor, Badge, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { SqlConnection } from '@datalab/contract/api/sql-connections';
import { texts } from '@datalab/contract/texts';
import { plural } from '../../../lib/format.ts';

export const driverLabels = { postgres: 'PostgreSQL', mysql: 'MySQL / MariaDB', sqlite: 'SQLite' } as const;

/** Where a connection points: host and port, or the file of a SQLite database. */
export function connectionTarget(connection: SqlConnection): string {
  if (connection.kind === 'sqlite') return connection.database;
  const host = connection.host ?? texts.notSet;
  return `${host}${connection.port ? `:${connection.port}` : ''} / ${connection.database}`;
}

interface ConnectionTableProps {
  connections: readonly SqlConnection[];
  /** The edit screen of a connection, for those who manage them. */
  editHref?: (connection: SqlConnection) => string;
}

export function ConnectionTable({ connections, editHref }: ConnectionTableProps) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Host / database</Table.Th>
            <Table.Th>User</Table.Th>
            <Table.Th>Used by</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {connections.map((connection) => (
            <Table.Tr key={connection.id}>
              <Table.Td>
                {editHref ? (
                  <Anchor component={Link} to={editHref(connection)} fw={600}>
                    {connection.name}
                  </Anchor>
                ) : (
                  <Text fw={600} size="sm">
                    {connection.name}
                  </Text>
                )}
                {connection.description ? (
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {connection.description}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <Badge variant="light" color="gray" tt="none">
                  {driverLabels[connection.kind]}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {connectionTarget(connection)}
                </Text>
              </Table.Td>
              <Table.Td>{connection.username ?? texts.notSet}</Table.Td>
              <Table.Td>{plural(connection.assetCount, 'data asset')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
