import { Anchor, Badge, Button, Group, Table, Text } from '@mantine/core';
import { IconId } from '@tabler/icons-react';
import { userSortColumns, type UserListItem } from '@datalab/contract/api/users';
import { GroupBadge } from '../../../components/roles/GroupBadge.tsx';
import type { SortState } from '../../../components/search/use-sort-state.ts';
import { type DataColumn, DataTable } from '../../../components/table/DataTable.tsx';
import { tableSort } from '../../../components/table/table-sort.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { PermissionSwitch } from './PermissionSwitch.tsx';

const SHOWN_GROUPS = 3;

type UserSortColumn = (typeof userSortColumns)[number];

const columns: DataColumn[] = [
  { label: 'Name', sortKey: 'name' },
  { label: 'Username', sortKey: 'username' },
  { label: 'E-mail', sortKey: 'email' },
  { label: 'Groups' },
  { label: 'Last seen', sortKey: 'lastSeenAt' },
  { label: 'User management' },
  { label: 'Details' },
];

export interface UserTableProps {
  users: UserListItem[];
  sort: SortState<UserSortColumn>;
  currentUserId: number | undefined;
  onOpen: (user: UserListItem) => void;
}

export function UserTable({ users, sort, currentUserId, onOpen }: UserTableProps) {
  return (
    <DataTable label="Users" columns={columns} minWidth={900} sort={tableSort(sort, userSortColumns)}>
      {users.map((user) => (
        <Table.Tr key={user.id}>
          <Table.Td>
            <Group gap={6} wrap="nowrap">
              <Text fw={500} size="sm">
                {user.name}
              </Text>
              {user.id === currentUserId ? (
                <Badge size="xs" variant="light">
                  You
                </Badge>
              ) : null}
              {user.isActive ? null : (
                <Badge size="xs" color="gray">
                  Inactive
                </Badge>
              )}
            </Group>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{user.username ?? '—'}</Text>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{user.email ?? '—'}</Text>
          </Table.Td>
          <Table.Td>
            <Group gap={4}>
              {user.groups.slice(0, SHOWN_GROUPS).map((group) => (
                <GroupBadge key={group.id} group={group} />
              ))}
              {user.groups.length > SHOWN_GROUPS ? (
                <Anchor component="button" type="button" size="xs" onClick={() => onOpen(user)}>
                  +{user.groups.length - SHOWN_GROUPS} more
                </Anchor>
              ) : null}
              {user.groups.length === 0 ? (
                <Text size="sm" c="dimmed">
                  None
                </Text>
              ) : null}
            </Group>
          </Table.Td>
          <Table.Td>
            <Text size="sm">{formatDateTime(user.lastSeenAt) || 'Never'}</Text>
          </Table.Td>
          <Table.Td>
            <PermissionSwitch user={user} isSelf={user.id === currentUserId} />
          </Table.Td>
          <Table.Td>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconId size={14} />}
              onClick={() => onOpen(user)}
              aria-label={`Details of ${user.name}`}
            >
              Details
            </Button>
          </Table.Td>
        </Table.Tr>
      ))}
    </DataTable>
  );
}
