import type { ReactNode } from 'react';
import { Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDeviceDesktop } from '@tabler/icons-react';
import { texts } from '@datalab/contract/texts';
import { useDeveloperMode } from '../../lib/developer-mode.ts';
import { useIsMobile } from '../../lib/use-is-mobile.ts';

export interface MobileGateProps {
  children: ReactNode;
  /** Home is exempt (SPEC §2). */
  isExempt?: boolean;
}

/** Below 768 px every page except home is replaced by a notice, unless developer mode is on. */
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
      </Stack>
    </Center>
  );
}
