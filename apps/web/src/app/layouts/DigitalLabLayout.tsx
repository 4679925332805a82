import { Badge, Group } from '@mantine/core';
import { paths } from '@datalab/contract/paths';
import { AccountArea } from './header/AccountArea.tsx';
import { Brand } from './header/Brand.tsx';
import { NavLinks } from './header/NavLinks.tsx';
import { LayoutFrame } from './MainLayout.tsx';

const items = [{ label: 'Tokens', to: paths.digitalLabTokens }];

/** The slimmer layout of the Digital Lab area for external partners: the assets shared with them, their tokens. */
export function DigitalLabLayout() {
  return (
    <LayoutFrame
      headerHeight={56}
      header={
        <Group h="100%" px={{ base: 'sm', sm: 'lg' }} justify="space-between" wrap="nowrap">
          <Group gap="lg" wrap="nowrap">
            <Group gap="xs" wrap="nowrap">
              <Brand to={paths.digitalLabTokens} />
              <Badge variant="light" radius="sm">
                Digital Lab
              </Badge>
            </Group>
            <NavLinks items={items} label="Digital Lab" />
          </Group>
          <AccountArea tokensPath={paths.digitalLabTokens} createTokenPath={paths.digitalLabTokenCreatePat} />
        </Group>
      }
    />
  );
}
