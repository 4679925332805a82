import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { IconLogin } from '@tabler/icons-react';
import { useSignInAgain } from '../../lib/auth/use-sign-in-again.ts';

/** Shown in place of a protected screen once the session has ended (see session-ended.ts). */
export function SessionEndedState() {
  const signInAgain = useSignInAgain();
  return (
    <Container size="sm" py={64}>
      <Stack align="center" gap="md" ta="center">
        <Title order={1} fz="h2">
          Your session has ended
        </Title>
        <Text c="dimmed">
          You were signed out, or your sign-in expired and could not be renewed. Sign in again to carry on where you
          were.
        </Text>
        <Button leftSection={<IconLogin size={18} />} onClick={signInAgain}>
          Sign in again
        </Button>
      </Stack>
    </Container>
  );
}
