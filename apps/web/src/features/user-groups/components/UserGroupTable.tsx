import { ActionIcon, Table } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { userGroupSortColumns, type UserGroupSummary } from '@datalab/contract/api/user-groups';
import { ConfirmAction } from '../../../components/confirm/ConfirmAction.tsx';
import type { SortState } from '../../../components/search/use-sort-state.ts';
import { type DataColumn, DataTable } from '../../../components/table/DataTable.tsx';
import { tableSort } from '../../../components/table/table-sort.ts';
import { plural } from '../../../lib/format.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { useDeleteUserGroup } from '../api/delete-user-group.ts';
import { GroupSummaryCells } from './GroupSummaryCells.tsx';

const columns: DataColumn[] = [
  { label: 'Name', sortKey: 'name' },
  { label: 'Description' },
  { label: 'Members', ta: 'right', sortKey: 'memberCount' },
  { label: 'Child groups', ta: 'right' },
  { label: 'Parent groups', ta: 'right' },
  { label: 'Delete', w: 80 },
];

export function UserGroupTable({
  groups,
  sort,
}: {
  groups: UserGroupSummary[];
  sort: SortState<(typeof userGroupSortColumns)[number]>;
}) {
  const deletion = useDeleteUserGroup();
  const handleDelete = async (group: UserGroupSummary) => {
    await deletion.mutateAsync(group.id);
    notifySuccess(`Group ${group.name} deleted`);
  };
  return (
    <DataTable label="User groups" columns={columns} minWidth={800} sort={tableSort(sort, userGroupSortColumns)}>
      {groups.map((group) => (
        <Table.Tr key={group.id}>
          <GroupSummaryCells group={group} descriptionLines={2} />
          <Table.Td ta="right">{group.parentCount}</Table.Td>
          <Table.Td>
            <ConfirmAction
              title="Delete group"
              message={
                <>
                  Delete <strong>{group.name}</strong>? Its {plural(group.memberCount, 'member')} lose the roles it
                  gives them, and it leaves the groups it is nested in. This cannot be undone.
                </>
              }
              confirmLabel="Delete group"
              onConfirm={() => handleDelete(group)}
            >
              {(open) => (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={`Delete ${group.name}`}
                  title={`Delete ${group.name}`}
                  onClick={open}
                >
                  <IconTrash size={18} />
                </ActionIcon>
              )}
            </ConfirmAction>
          </Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}
