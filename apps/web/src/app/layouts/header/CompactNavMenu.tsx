import { useState } from 'react';
import { Burger, Menu } from '@mantine/core';
import { Link } from 'react-router';
import { useCurrentUser } from '../../../features/account/api/get-current-user.ts';
import { adminEntries } from './AdminMenu.tsx';
import type { NavItem } from './nav-items.ts';

/** On narrow screens the navigation (and administration) folds into one menu. */
export function CompactNavMenu({ items }: { items: NavItem[] }) {
  const [opened, setOpened] = useState(false);
  const { data: currentUser } = useCurrentUser();
  const isAdministrator = currentUser?.permissions.canManageUsers === true;
  return (
    <Menu opened={opened} onChange={setOpened} position="bottom-end" width={240}>
      <Menu.Target>
        <Burger opened={opened} size="sm" hiddenFrom="md" aria-label="Navigation menu" />
      </Menu.Target>
      <Menu.Dropdown>
        {items.map((item) => (
          <Menu.Item key={item.to} component={Link} to={item.to}>
            {item.label}
          </Menu.Item>
        ))}
        {isAdministrator ? (
          <>
            <Menu.Divider />
            <Menu.Label>Administration</Menu.Label>
            {adminEntries.map(({ label, to }) => (
              <Menu.Item key={to} component={Link} to={to}>
                {label}
              </Menu.Item>
            ))}
          </>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}
