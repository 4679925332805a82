import { useState } from 'react';
import { ActionIcon, Button, Group, Loader, Paper, Stack, Table, Text } from '@mantine/core';
import { IconFolderPlus, IconSitemap, IconUnlink } from '@tabler/icons-react';
import { MAX_GROUP_DEPTH } from '@datalab/contract/api/user-groups';
import { ConfirmAction } from '../../../components/confirm/ConfirmAction.tsx';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { EmptyPanel } from '../../../components/page/EmptyPanel.tsx';
import type { Suggestion } from '../../../components/pickers/SuggestionPicker.tsx';
import { type DataColumn, DataTable } from '../../../components/table/DataTable.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useAddChildGroup } from '../api/add-child-group.ts';
import { useChildGroups } from '../api/get-child-groups.ts';
import { useRemoveChildGroup } from '../api/remove-child-group.ts';
import { NestingPicker } from './NestingPicker.tsx';
import { GroupSummaryCells } from './GroupSummaryCells.tsx';

const columns: DataColumn[] = [
  { label: 'Name' },
  { label: 'Description' },
  { label: 'Members', ta: 'right' },
  { label: 'Child groups', ta: 'right' },
  { label: 'Remove', w: 90 },
];

/** The refusal of a nesting, worded for the field: 'Max depth reached: <why>'. */
export function nestingRefusal(error: unknown): string | null {
  if (!isApiError(error) || error.kind !== 'validation') return null;
  const title = error.problem?.title ?? error.errors['childId']?.[0] ?? error.message;
  return error.problem?.detail ? `${title}: ${error.problem.detail}` : title;
}

/** Groups nested in this one: their members count as this group's members. */
export function ChildGroups({ groupId, groupName }: { groupId: number; groupName: string }) {
  const children = useChildGroups(groupId);
  const add = useAddChildGroup(groupId);
  const remove = useRemoveChildGroup(groupId);
  const [selected, setSelected] = useState<Suggestion | null>(null);
  const refusal = selected ? nestingRefusal(add.error) : null;

  const handleSelect = (next: Suggestion | null) => {
    add.reset();
    setSelected(next);
  };
  const handleAdd = () => {
    if (!selected) return;
    add.mutate(selected.id, {
      onSuccess: () => {
        notifySuccess(`${selected.label} is now nested in ${groupName}`);
        setSelected(null);
      },
    });
  };

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="md">
        <Stack gap="xs">
          <Group gap="sm" align="flex-start" wrap="nowrap">
            <div style={{ flex: 1, maxWidth: 520 }}>
              <NestingPicker
                groupId={groupId}
                label="Nest a group in this one"
                selected={selected}
                onSelect={handleSelect}
                excludedIds={[groupId, ...(children.data ?? []).map((c) => c.id)]}
                error={refusal}
              />
            </div>
            <Button
              mt={25}
              leftSection={<IconFolderPlus size={16} />}
              disabled={!selected}
              loading={add.isPending}
              onClick={handleAdd}
            >
              Add group
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            Members of a nested group count as members of {groupName}. Only groups that make no cycle and keep chains at
            most {MAX_GROUP_DEPTH} groups deep are offered.
          </Text>
        </Stack>
      </Paper>
      {children.isPending ? (
        <Loader size="sm" aria-label="Loading child groups" />
      ) : children.isError ? (
        <InlineError error={children.error} />
      ) : children.data.length === 0 ? (
        <EmptyPanel
          icon={<IconSitemap size={28} stroke={1.5} />}
          title="No nested groups"
          description={`Nest a group in ${groupName} to give its members whatever ${groupName} is given.`}
        />
      ) : (
        <DataTable label="Child groups" columns={columns}>
          {children.data.map((child) => (
            <Table.Tr key={child.id}>
              <GroupSummaryCells group={child} descriptionLines={1} />
              <Table.Td>
                <ConfirmAction
                  title="Take the group out"
                  message={
                    <>
                      Take {child.name} out of <strong>{groupName}</strong>? Its members stop counting as members of{' '}
                      {groupName}. The group itself stays.
                    </>
                  }
                  confirmLabel="Take out"
                  onConfirm={() =>
                    remove.mutateAsync(child.id).then(() => notifySuccess(`${child.name} taken out of ${groupName}`))
                  }
                >
                  {(open) => (
                    <ActionIcon variant="subtle" color="red" aria-label={`Take ${child.name} out`} onClick={open}>
                      <IconUnlink size={18} />
                    </ActionIcon>
                  )}
                </ConfirmAction>
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
    </Stack>
  );
}
