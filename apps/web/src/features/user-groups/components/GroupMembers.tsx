import { useState } from 'react';
import { ActionIcon, Button, Group, Loader, Paper, Stack, Table, Text } from '@mantine/core';
import { IconUserMinus, IconUserPlus, IconUsers } from '@tabler/icons-react';
import { ConfirmAction } from '../../../components/confirm/ConfirmAction.tsx';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import type { PickerSlot } from '../../../components/pickers/picker-slot.ts';
import type { Suggestion } from '../../../components/pickers/SuggestionPicker.tsx';
import { type DataColumn, DataTable } from '../../../components/table/DataTable.tsx';
import { notifySuccess } from '../../../lib/notify.ts';
import { useAddGroupUser } from '../api/add-group-user.ts';
import { useGroupUsers } from '../api/get-group-users.ts';
import { useRemoveGroupUser } from '../api/remove-group-user.ts';

const columns: DataColumn[] = [
  { label: 'Name' },
  { label: 'Username' },
  { label: 'E-mail' },
  { label: 'Remove', w: 90 },
];

export interface GroupMembersProps {
  groupId: number;
  groupName: string;
  /** The users feature's picker, handed in by the screen. */
  renderUserPicker: PickerSlot;
}

/** Direct members of a group: add with a user search, remove with a confirmation. */
export function GroupMembers({ groupId, groupName, renderUserPicker }: GroupMembersProps) {
  const members = useGroupUsers(groupId);
  const add = useAddGroupUser(groupId);
  const remove = useRemoveGroupUser(groupId);
  const [selected, setSelected] = useState<Suggestion | null>(null);

  const handleAdd = () => {
    if (!selected) return;
    add.mutate(selected.id, {
      onSuccess: () => {
        notifySuccess(`${selected.label} added to ${groupName}`);
        setSelected(null);
      },
    });
  };

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="md">
        <Group gap="sm" align="flex-end" wrap="nowrap">
          <div style={{ flex: 1, maxWidth: 420 }}>
            {renderUserPicker({
              label: 'Add a member',
              selected,
              onSelect: setSelected,
              excludedIds: (members.data ?? []).map((m) => m.id),
            })}
          </div>
          <Button
            leftSection={<IconUserPlus size={16} />}
            disabled={!selected}
            loading={add.isPending}
            onClick={handleAdd}
          >
            Add member
          </Button>
        </Group>
      </Paper>
      {members.isPending ? (
        <Loader size="sm" aria-label="Loading members" />
      ) : members.isError ? (
        <InlineError error={members.error} />
      ) : members.data.length === 0 ? (
        <EmptyPanel
          icon={<IconUsers size={28} stroke={1.5} />}
          title="No members yet"
          description={`Find people above to add them to ${groupName}. Members of groups nested in it count as its members too.`}
        />
      ) : (
        <DataTable label="Members" columns={columns}>
          {members.data.map((member) => (
            <Table.Tr key={member.id}>
              <Table.Td fw={500}>{member.name}</Table.Td>
              <Table.Td>{member.username ?? '—'}</Table.Td>
              <Table.Td>{member.email ?? '—'}</Table.Td>
              <Table.Td>
                <ConfirmAction
                  title="Remove member"
                  message={
                    <>
                      Remove {member.name} from <strong>{groupName}</strong>? They lose the roles the group gives,
                      unless they hold them another way.
                    </>
                  }
                  confirmLabel="Remove"
                  onConfirm={() =>
                    remove.mutateAsync(member.id).then(() => notifySuccess(`${member.name} removed from ${groupName}`))
                  }
                >
                  {(open) => (
                    <ActionIcon variant="subtle" color="red" aria-label={`Remove ${member.name}`} onClick={open}>
                      <IconUserMinus size={18} />
                    </ActionIcon>
                  )}
                </ConfirmAction>
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
      <Text size="xs" c="dimmed">
        Showing direct members. People in groups nested in {groupName} are members too; see the Hierarchy tab.
      </Text>
    </Stack>
  );
}
