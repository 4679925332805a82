import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { UserMetricsSummary } from '@datalab/contract/api/reporting';
import { MetricCells, MetricHeaders } from './MetricCells.tsx';

type UserRef = NonNullable<UserMetricsSummary['user']>;

export interface TopUsersProps {
  items: UserMetricsSummary[];
  /** Where a user's name links to (administrators: user management); plain text without it. */
  userHref?: (user: UserRef) => string;
}

function UserName({ user, userHref }: { user: UserMetricsSummary['user']; userHref: TopUsersProps['userHref'] }) {
  if (user === null) {
    return (
      <Text size="sm" c="dimmed">
        Collection tokens
      </Text>
    );
  }
  const name = user.username ? `${user.name} (${user.username})` : user.name;
  if (!userHref) return <Text size="sm">{name}</Text>;
  return (
    <Anchor component={Link} to={userHref(user)} size="sm">
      {name}
    </Anchor>
  );
}

/** Callers by calls over the period; calls made with collection tokens, which act for nobody, are one row. */
export function TopUsers({ items, userHref }: TopUsersProps) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table aria-label="Top users" striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">User</Table.Th>
            <MetricHeaders />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.user?.id ?? 'collection-tokens'}>
              <Table.Td>
                <UserName user={item.user} userHref={userHref} />
              </Table.Td>
              <MetricCells metrics={item.totals} />
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
