import { AppShell, Box } from '@mantine/core';
import { AppHeader } from './header/AppHeader.tsx';
import { Footer } from './Footer.tsx';
import { LayoutOutlet } from './LayoutOutlet.tsx';

export function MainLayout() {
  return (
    <AppShell header={{ height: 64 }} padding={0}>
      <AppShell.Header>
        <AppHeader />
      </AppShell.Header>
      <AppShell.Main display="flex" style={{ flexDirection: 'column' }}>
        <Box component="div" flex={1}>
          <LayoutOutlet />
        </Box>
        <Footer />
      </AppShell.Main>
    </AppShell>
  );
}
