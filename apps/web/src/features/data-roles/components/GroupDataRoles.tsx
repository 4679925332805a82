import { Anchor, Loader, Table } from '@mantine/core';
import { IconShieldOff } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import { RoleBadge } from '../../../components/roles/RoleBadge.tsx';
import { useUserGroupDataRoles } from '../api/get-user-group-data-roles.ts';

/** The roles a group holds, each linking to the collection's Access tab where they are changed. */
export function GroupDataRoles({ groupId }: { groupId: number }) {
  const roles = useUserGroupDataRoles(groupId);
  if (roles.isPending) return <Loader size="sm" aria-label="Loading data roles" />;
  if (roles.isError) return <InlineError error={roles.error} />;
  if (roles.data.roles.length === 0) {
    return (
      <EmptyPanel
        icon={<IconShieldOff size={28} stroke={1.5} />}
        title="No data roles"
        description="This group holds no role on any collection. To give its members access, open a collection, choose Edit, and grant the group a role on the Access tab."
        actions={
          <Anchor component={Link} to={paths.collections} size="sm">
            Go to collections
          </Anchor>
        }
      />
    );
  }
  return (
    <Table striped verticalSpacing="sm" aria-label="Data roles of the group">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Collection</Table.Th>
          <Table.Th>Role</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {roles.data.roles.map(({ collection, role }) => (
          <Table.Tr key={collection.uid}>
            <Table.Td>
              <Anchor component={Link} to={paths.collection(collection.uid, 'access')}>
                {collection.name}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <RoleBadge role={role} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
