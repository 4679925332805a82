import type { ReactNode } from 'react';
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

/** Below 768 px a page is replaced by a notice (with a way home), unless exempt or in developer mode. */
export function MobileGate({ children, isExempt = false }: MobileGateProps) {
  const isMobile = useIsMobile();
  const isDeveloperMode = useDeveloperMode();
  if (!isMobile || isDeveloperMode || isExempt) return children;
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
