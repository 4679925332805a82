import { Anchor, Loader, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { RoleBadge } from '../../../components/roles/RoleBadge.tsx';
import { useUserDataRoles } from '../api/get-user-data-roles.ts';
import { RoleSources } from './RoleSources.tsx';

/** A user's effective role on each collection, with the direct role and the groups behind it. */
export function UserEffectiveRoles({ userId }: { userId: number }) {
  const roles = useUserDataRoles(userId);
  if (roles.isPending) return <Loader size="sm" aria-label="Loading roles" />;
  if (roles.isError) return <InlineError error={roles.error} />;
  if (roles.data.roles.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No role on any collection. Grant one on a collection&apos;s Access tab, or add the user to a group that holds
        one.
      </Text>
    );
  }
  return (
    <Table verticalSpacing="xs" aria-label="Effective roles">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Collection</Table.Th>
          <Table.Th>Role</Table.Th>
          <Table.Th>Comes from</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {roles.data.roles.map((entry) => (
          <Table.Tr key={entry.collection.uid}>
            <Table.Td>
              <Anchor component={Link} to={paths.collection(entry.collection.uid, 'access')} size="sm">
                {entry.collection.name}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <RoleBadge role={entry.role} size="sm" />
            </Table.Td>
            <Table.Td>
              <RoleSources entry={entry} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
