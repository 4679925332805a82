import { AppShell, Box } from '@mantine/core';
import type { ReactNode } from 'react';
import { AppHeader } from './header/AppHeader.tsx';
import { Footer } from './Footer.tsx';
import { LayoutOutlet } from './LayoutOutlet.tsx';
import { MAIN_CONTENT_ID, SkipLink } from './SkipLink.tsx';

/**
 * The frame both layouts share: a skip link, the header, the page in the main landmark, and the footer beside it
 * (not inside: the footer is a landmark of its own), pushed to the bottom of short pages.
 */
export function LayoutFrame({ headerHeight, header }: { headerHeight: number; header: ReactNode }) {
  return (
    <AppShell header={{ height: headerHeight }} padding={0}>
      <SkipLink />
      <AppShell.Header>{header}</AppShell.Header>
      <Box mih="100dvh" display="flex" style={{ flexDirection: 'column' }}>
        <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1} flex={1} mih={0} style={{ outline: 'none' }}>
          <LayoutOutlet />
        </AppShell.Main>
        <Footer />
      </Box>
    </AppShell>
  );
}

export function MainLayout() {
  return <LayoutFrame headerHeight={64} header={<AppHeader />} />;
}
