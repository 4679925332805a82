import { Button, Menu } from '@mantine/core';
import {
  IconChartBar,
  IconChevronDown,
  IconDatabaseCog,
  IconFileText,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { useCurrentUser } from '../../../features/account/api/get-current-user.ts';

export const adminEntries = [
  { label: 'User Management', to: paths.userManagement, icon: IconUsers },
  { label: 'User Group Management', to: paths.userGroups, icon: IconUsersGroup },
  { label: 'Cache Management', to: paths.cacheManagement, icon: IconDatabaseCog },
  { label: 'Log Management', to: paths.logManagement, icon: IconFileText },
  { label: 'Usage', to: paths.usageOverview, icon: IconChartBar },
];

/** Only for holders of canManageUsers (product §6). */
export function AdminMenu() {
  const { data: currentUser } = useCurrentUser();
  if (!currentUser?.permissions.canManageUsers) return null;
  return (
    <Menu position="bottom-end" width={240}>
      <Menu.Target>
        <Button visibleFrom="md" variant="subtle" color="gray" rightSection={<IconChevronDown size={16} />} px="sm">
          Administration
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {adminEntries.map(({ label, to, icon: Icon }) => (
          <Menu.Item key={to} component={Link} to={to} leftSection={<Icon size={16} stroke={1.5} />}>
            {label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
