import { ActionIcon, Anchor, Table, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { UserGroupSummary } from '@datalab/contract/api/user-groups';
import { paths } from '@datalab/contract/paths';
import { ConfirmAction } from '../../../components/confirm/ConfirmAction.tsx';
import { plural } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useDeleteUserGroup } from '../api/delete-user-group.ts';

export function UserGroupTable({ groups }: { groups: UserGroupSummary[] }) {
  const deletion = useDeleteUserGroup();
  const handleDelete = async (group: UserGroupSummary) => {
    await deletion.mutateAsync(group.id);
    notifySuccess(`Group ${group.name} deleted`);
  };
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table striped highlightOnHover verticalSpacing="sm" aria-label="User groups">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Description</Table.Th>
            <Table.Th ta="right">Members</Table.Th>
            <Table.Th ta="right">Child groups</Table.Th>
            <Table.Th ta="right">Parent groups</Table.Th>
            <Table.Th w={80}>Delete</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups.map((group) => (
            <Table.Tr key={group.id}>
              <Table.Td>
                <Anchor component={Link} to={paths.userGroup(group.id, 'members')} fw={500}>
                  {group.name}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c={group.description ? undefined : 'dimmed'} lineClamp={2}>
                  {group.description || 'No description'}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{group.memberCount}</Table.Td>
              <Table.Td ta="right">{group.childCount}</Table.Td>
              <Table.Td ta="right">{group.parentCount}</Table.Td>
              <Table.Td>
                <ConfirmAction
                  title="Delete group"
                  message={
                    <>
                      Delete <strong>{group.name}</strong>? Its {plural(group.memberCount, 'member')} lose the roles
                      it gives them, and it leaves the groups it is nested in. This cannot be undone.
                    </>
                  }
                  confirmLabel="Delete group"
                  onConfirm={() => handleDelete(group)}
                >
                  {(open) => (
                    <ActionIcon variant="subtle" color="red" aria-label={`Delete ${group.name}`} title={`Delete ${group.name}`} onClick={open}>
                      <IconTrash size={18} />
                    </ActionIcon>
                  )}
                </ConfirmAction>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
