import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { texts } from '@datalab/contract/texts';
import { DeveloperDetails } from './DeveloperDetails.tsx';
import { ErrorIllustration } from './ErrorIllustration.tsx';

export interface RenderFailureProps {
  error: Error;
  onRetry: () => void;
}

/** product §2: 'An error occurred', the message and a 'Try again' button. */
export function RenderFailure({ error, onRetry }: RenderFailureProps) {
  return (
    <Container size="sm" py={64}>
      <Stack align="center" gap="md" ta="center" role="alert">
        <ErrorIllustration />
        <Title order={1} fz="h2">
          {texts.renderFailure.title}
        </Title>
        <Text c="dimmed">{error.message}</Text>
        <Button onClick={onRetry}>{texts.renderFailure.retry}</Button>
        <DeveloperDetails details={error.stack} />
      </Stack>
    </Container>
  );
}
