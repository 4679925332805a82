import { Button, Center, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { texts } from '@datalab/contract/texts';
import { DeveloperDetails } from '../../../components/error/DeveloperDetails.tsx';
import { ErrorIllustration } from '../../../components/error/ErrorIllustration.tsx';

export interface AuthFailure {
  /** 'Sign-in failed' or 'Sign-out failed' (product §8). */
  summary: string;
  error: Error | null;
}

export interface AuthStatusProps {
  busyLabel: string;
  failure?: AuthFailure | null;
  onRetry?: () => void;
}

/** What the auth routes show: a spinner while the provider round trip runs, or its failure. */
export function AuthStatus({ busyLabel, failure, onRetry }: AuthStatusProps) {
  if (!failure) {
    return (
      <Center mih="60vh">
        <Stack align="center" gap="sm" role="status">
          <Loader />
          <Text c="dimmed">{busyLabel}</Text>
        </Stack>
      </Center>
    );
  }
  return (
    <Container size="sm" py={64}>
      <Stack align="center" gap="md" ta="center" role="alert">
        <ErrorIllustration />
        <Title order={1} fz="h2">
          {failure.summary}
        </Title>
        <Text c="dimmed">{texts.generic.message}</Text>
        <Group>
          {onRetry ? <Button onClick={onRetry}>{texts.renderFailure.retry}</Button> : null}
          <Button component={Link} to={paths.home} variant="default">
            Home
          </Button>
        </Group>
        <DeveloperDetails details={failure.error ? `${failure.error.name}: ${failure.error.message}` : null} />
      </Stack>
    </Container>
  );
}
