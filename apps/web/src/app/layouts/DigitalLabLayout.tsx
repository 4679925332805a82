import { AppShell, Badge, Box, Group } from '@mantine/core';
import { paths } from '@datalab/contract/paths';
import { AccountArea } from './header/AccountArea.tsx';
import { Brand } from './header/Brand.tsx';
import { NavLinks } from './header/NavLinks.tsx';
import { Footer } from './Footer.tsx';
import { LayoutOutlet } from './LayoutOutlet.tsx';

const items = [{ label: 'Tokens', to: paths.digitalLabTokens }];

/** The slimmer layout of the Digital Lab area for external partners (DESIGN §8). */
export function DigitalLabLayout() {
  return (
    <AppShell header={{ height: 56 }} padding={0}>
      <AppShell.Header>
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
      </AppShell.Header>
      <AppShell.Main display="flex" style={{ flexDirection: 'column' }}>
        <Box flex={1}>
          <LayoutOutlet />
        </Box>
        <Footer />
      </AppShell.Main>
    </AppShell>
  );
}
