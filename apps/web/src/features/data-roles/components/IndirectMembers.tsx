import { Stack, Table, Text, Title } from '@mantine/core';
import type { CollectionDataRoles } from '@datalab/contract/api/data-roles';
import { RoleBadge } from '../../../components/roles/RoleBadge.tsx';
import { DataTable } from '../../../components/table/DataTable.tsx';
import { GroupPath } from '../../../components/roles/GroupPath.tsx';

const columns = [{ label: 'Name' }, { label: 'Role', w: 140 }, { label: 'Through' }];

/**
 * People who reach a role through groups, with the path it comes through (Staff › Analysts: Staff
 * holds the role, the person is in Analysts, which is nested in Staff). Read-only: change it on the
 * group or its membership.
 */
export function IndirectMembers({
  roles,
  groupHref,
}: {
  roles: CollectionDataRoles;
  groupHref?: ((id: number) => string) | undefined;
}) {
  const entries = roles.indirectUsers;
  return (
    <Stack gap="xs">
      <Title order={2} fz="h4">
        Through groups ({entries.length})
      </Title>
      {entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nobody holds a role here through a group.
        </Text>
      ) : (
        <DataTable label="People with a role through groups" columns={columns}>
          {entries.map(({ user, role, path }) => (
            <Table.Tr key={`${user.id}-${path.map((group) => group.id).join('-')}`}>
              <Table.Td>
                <Text fw={500}>{user.name}</Text>
                {user.username ? (
                  <Text size="sm" c="dimmed">
                    {user.username}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                <RoleBadge role={role} />
              </Table.Td>
              <Table.Td>
                <GroupPath path={path} groupHref={groupHref} />
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
    </Stack>
  );
}
