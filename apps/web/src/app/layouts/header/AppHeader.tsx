import { Group } from '@mantine/core';
import { AccountArea } from './AccountArea.tsx';
import { AdminMenu } from './AdminMenu.tsx';
import { Brand } from './Brand.tsx';
import { CompactNavMenu } from './CompactNavMenu.tsx';
import { DeveloperModeSwitch } from './DeveloperModeSwitch.tsx';
import { useMainNavItems } from './nav-items.ts';
import { NavLinks } from './NavLinks.tsx';

/** Below this breakpoint (992 px) the navigation and administration fold into one menu: at tablet width the
 * links, the developer switch, the administration menu and the avatar do not fit on one line. */
const COMPACT_BELOW = 'md';

export function AppHeader() {
  const items = useMainNavItems();
  return (
    <Group h="100%" px={{ base: 'sm', sm: 'lg' }} justify="space-between" wrap="nowrap" gap="sm">
      <Group gap="xl" wrap="nowrap">
        <Brand />
        <NavLinks items={items} label="Main" visibleFrom={COMPACT_BELOW} />
      </Group>
      <Group gap="sm" wrap="nowrap">
        <DeveloperModeSwitch />
        <AdminMenu />
        <AccountArea />
        <CompactNavMenu items={items} />
      </Group>
    </Group>
  );
}
