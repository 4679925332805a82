import { Anchor, Badge, Loader, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { GroupPath } from '../../../components/roles/GroupPath.tsx';
import { useUserGroupsOfUser } from '../api/get-user-groups-of-user.ts';

/** Every group a user is in: direct memberships, and the groups above them with the path through. */
export function UserGroupsList({ userId }: { userId: number }) {
  const groups = useUserGroupsOfUser(userId);
  if (groups.isPending) return <Loader size="sm" aria-label="Loading groups" />;
  if (groups.isError) return <InlineError error={groups.error} />;
  if (groups.data.groups.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Not a member of any group.
      </Text>
    );
  }
  return (
    <Table verticalSpacing="xs" aria-label="Groups of the user">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Group</Table.Th>
          <Table.Th>Membership</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {groups.data.groups.map(({ group, direct, path }) => (
          <Table.Tr key={group.id}>
            <Table.Td>
              <Anchor component={Link} to={paths.userGroup(group.id, 'members')} size="sm">
                {group.name}
              </Anchor>
            </Table.Td>
            <Table.Td>
              {direct ? (
                <Badge variant="light" color="gray" tt="none">
                  Direct
                </Badge>
              ) : (
                <Text size="sm">
                  Through <GroupPath path={path} />
                </Text>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
