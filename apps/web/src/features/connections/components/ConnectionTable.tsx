import { Anchor, Badge, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { SqlConnection } from '@datalab/contract/api/sql-connections';
import type { WebApiConnection } from '@datalab/contract/api/web-api';
import { texts } from '@datalab/contract/texts';
import { plural } from '../../../lib/format.ts';

export const driverLabels = { postgres: 'PostgreSQL', mysql: 'MySQL / MariaDB', sqlite: 'SQLite' } as const;
export const WEB_API_LABEL = 'Web API';

/** Where a connection points: host and port, or the file of a SQLite database. */
export function connectionTarget(connection: SqlConnection): string {
  if (connection.kind === 'sqlite') return connection.database;
  const host = connection.host ?? texts.notSet;
  return `${host}${connection.port ? `:${connection.port}` : ''} / ${connection.database}`;
}

/** One line of the table, whatever the kind. */
interface ConnectionRow {
  id: number;
  name: string;
  description: string;
  kind: string;
  target: string;
  /** The database user, or the Web API connection's credentials. */
  account: string;
  assetCount: number;
}

function rowsOf(sql: readonly SqlConnection[], webApi: readonly WebApiConnection[]): ConnectionRow[] {
  const rows: ConnectionRow[] = [
    ...sql.map((c) => ({
      id: c.id,
      name: c.name,
      description: c.description,
      kind: driverLabels[c.kind],
      target: connectionTarget(c),
      account: c.username ?? texts.notSet,
      assetCount: c.assetCount,
    })),
    ...webApi.map((c) => ({
      id: c.id,
      name: c.name,
      description: c.description,
      kind: WEB_API_LABEL,
      target: c.baseUrl,
      account: c.credentials.length === 0 ? texts.none : c.credentials.map((credential) => credential.name).join(', '),
      assetCount: c.assetCount,
    })),
  ];
  return rows.sort((a, b) => a.name.localeCompare(b.name));
}

interface ConnectionTableProps {
  connections: readonly SqlConnection[];
  webApiConnections?: readonly WebApiConnection[];
  /** The edit screen of a connection, for those who manage them. */
  editHref?: (connection: { name: string }) => string;
}

export function ConnectionTable({ connections, webApiConnections = [], editHref }: ConnectionTableProps) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Kind</Table.Th>
            <Table.Th>Host / database / base URL</Table.Th>
            <Table.Th>User / credentials</Table.Th>
            <Table.Th>Used by</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rowsOf(connections, webApiConnections).map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>
                {editHref ? (
                  <Anchor component={Link} to={editHref(row)} fw={600}>
                    {row.name}
                  </Anchor>
                ) : (
                  <Text fw={600} size="sm">
                    {row.name}
                  </Text>
                )}
                {row.description ? (
                  <Text size="xs" c="dimmed" lineClamp={1}>
                    {row.description}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <Badge variant="light" color="gray" tt="none">
                  {row.kind}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {row.target}
                </Text>
              </Table.Td>
              <Table.Td>{row.account}</Table.Td>
              <Table.Td>{plural(row.assetCount, 'data asset')}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
