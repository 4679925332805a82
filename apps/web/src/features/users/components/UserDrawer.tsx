import type { ReactNode } from 'react';
import { DataList, Drawer, Group, Stack, Text, Title } from '@mantine/core';
import type { UserListItem } from '@datalab/contract/api/users';
import { texts } from '@datalab/contract/texts';
import { formatDateTime } from '../../../lib/format.ts';
import { ActiveControl } from './ActiveControl.tsx';
import { UserGroupsList } from './UserGroupsList.tsx';

export interface UserDrawerProps {
  user: UserListItem | null;
  isSelf: boolean;
  onClose: () => void;
  /** The user's effective data roles, from the data-roles feature. */
  roles: ReactNode;
}

/** One user: who they are, their groups (direct and through nesting) and their effective roles on collections. */
export function UserDrawer({ user, isSelf, onClose, roles }: UserDrawerProps) {
  return (
    <Drawer
      opened={user !== null}
      onClose={onClose}
      position="right"
      size="xl"
      title={
        <Text fw={700} size="lg">
          {user?.name}
        </Text>
      }
    >
      {user ? (
        <Stack gap="xl">
          <DataList labelWidth={150} gap="sm">
            <DataList.Item>
              <DataList.ItemLabel>Username</DataList.ItemLabel>
              <DataList.ItemValue>{user.username ?? texts.notSet}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>E-mail</DataList.ItemLabel>
              <DataList.ItemValue>{user.email ?? texts.notSet}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>Status</DataList.ItemLabel>
              <DataList.ItemValue>
                <Group gap="sm">
                  <Text inherit>{user.isActive ? 'Active' : 'Inactive: cannot sign in'}</Text>
                  <ActiveControl user={user} isSelf={isSelf} />
                </Group>
              </DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>User management</DataList.ItemLabel>
              <DataList.ItemValue>{user.permissions.canManageUsers ? 'Yes' : 'No'}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>Last seen</DataList.ItemLabel>
              <DataList.ItemValue>{formatDateTime(user.lastSeenAt) || 'Never'}</DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>First seen</DataList.ItemLabel>
              <DataList.ItemValue>{formatDateTime(user.createdAt)}</DataList.ItemValue>
            </DataList.Item>
          </DataList>
          <Stack gap="xs">
            <Title order={3} fz="h5">
              Groups
            </Title>
            <UserGroupsList userId={user.id} />
          </Stack>
          <Stack gap="xs">
            <Title order={3} fz="h5">
              Roles on collections
            </Title>
            {roles}
          </Stack>
        </Stack>
      ) : null}
    </Drawer>
  );
}
