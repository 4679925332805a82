import { Button, Container, MantineProvider, Stack, Text, Title } from '@mantine/core';
import { texts } from '@datalab/contract/texts';
import { ErrorIllustration } from '../components/error/ErrorIllustration.tsx';
import { DeveloperDetails } from '../components/error/DeveloperDetails.tsx';
import { readCspNonce } from '../config/csp-nonce.ts';
import { cssVariablesResolver, theme } from '../config/theme.ts';

/** Shown when the portal configuration cannot be loaded: without it nobody can sign in. */
export function StartupFailure({ error }: { error: Error }) {
  const nonce = readCspNonce();
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      forceColorScheme="light"
      getStyleNonce={nonce ? () => nonce : undefined}
    >
      <Container size="sm" py={96}>
        <Stack align="center" gap="md" ta="center" role="alert">
          <ErrorIllustration />
          <Title order={1} fz="h2">
            {texts.generic.summary}
          </Title>
          <Text c="dimmed">{texts.generic.message}</Text>
          <Button onClick={() => window.location.reload()}>{texts.renderFailure.retry}</Button>
          <DeveloperDetails details={`${error.name}: ${error.message}`} />
        </Stack>
      </Container>
    </MantineProvider>
  );
}
