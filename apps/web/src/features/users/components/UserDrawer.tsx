import type { ReactNode } from 'react';
import { Badge, DataList, Drawer, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { UserListItem } from '@datalab/contract/api/users';
import { paths } from '@datalab/contract/paths';
import { texts } from '@datalab/contract/texts';
import { formatDateTime } from '../../../lib/format.ts';

export interface UserDrawerProps {
  user: UserListItem | null;
  onClose: () => void;
  /** The user's effective data roles, from the data-roles feature. */
  roles: ReactNode;
}

/** One user: who they are, their groups and, below, their effective roles on collections. */
export function UserDrawer({ user, onClose, roles }: UserDrawerProps) {
  return (
    <Drawer opened={user !== null} onClose={onClose} position="right" size="xl" title={
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
              <DataList.ItemValue>{user.isActive ? 'Active' : 'Inactive'}</DataList.ItemValue>
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
              Groups ({user.groups.length})
            </Title>
            {user.groups.length === 0 ? (
              <Text size="sm" c="dimmed">
                Not a direct member of any group.
              </Text>
            ) : (
              <Group gap={6}>
                {user.groups.map((group) => (
                  <Badge key={group.id} component={Link} to={paths.userGroup(group.id, 'members')} variant="light" color="indigo" tt="none" style={{ cursor: 'pointer' }}>
                    {group.name}
                  </Badge>
                ))}
              </Group>
            )}
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
