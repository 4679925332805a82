import { useState, type ReactNode } from 'react';
import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDeviceDesktop } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { texts } from '@datalab/contract/texts';
import { useDeveloperMode } from '../../lib/developer-mode.ts';
import { useIsMobile } from '../../lib/use-is-mobile.ts';

export interface MobileGateProps {
  children: ReactNode;
  /** Home is exempt (product §2), and so are the policy pages (docs/decisions.md 48). */
  isExempt?: boolean;
}

/**
 * Below 768 px a page is replaced by a notice (with a way home), unless exempt or in developer mode. A page already
 * shown is hidden, not unmounted, while the window is narrow: narrowing the window for a moment (snapping it beside
 * another) must not lose an unsaved draft. A page opened narrow is not built until the window is wide enough.
 */
export function MobileGate({ children, isExempt = false }: MobileGateProps) {
  const isMobile = useIsMobile();
  const isDeveloperMode = useDeveloperMode();
  const refused = isMobile && !isDeveloperMode && !isExempt;
  const [shown, setShown] = useState(!refused);
  if (!refused && !shown) setShown(true);
  return (
    <>
      {refused ? <MobileNotice /> : null}
      {/* display: contents lays the page out as if this wrapper were not there. */}
      {shown ? <div style={{ display: refused ? 'none' : 'contents' }}>{children}</div> : null}
    </>
  );
}

function MobileNotice() {
  return (
    <Center py={80} px="md">
      <Stack align="center" gap="sm" ta="center" maw={360}>
        <ThemeIcon size={64} radius="xl" variant="light">
          <IconDeviceDesktop size={34} stroke={1.5} />
        </ThemeIcon>
        <Title order={1} fz="h3">
          {texts.mobileNotSupported.title}
        </Title>
        <Text c="dimmed">{texts.mobileNotSupported.message}</Text>
        <Button component={Link} to={paths.home} variant="default" mt="sm">
          Go to home
        </Button>
      </Stack>
    </Center>
  );
}
