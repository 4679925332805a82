import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PRODUCT_NAME, texts } from '@datalab/contract/texts';
import { ErrorIllustration } from '../error/ErrorIllustration.tsx';

/** The not-found frame: illustration, product §8's text, an explanation and one way on. */
export function NotFoundFrame({ children, action }: { children: ReactNode; action: ReactNode }) {
  useDocumentTitle(`Not found · ${PRODUCT_NAME}`);
  return (
    <Container size="sm" py={64}>
      <Stack align="center" gap="md" ta="center">
        <ErrorIllustration />
        <Title order={1} fz="h2">
          {texts.notFound}
        </Title>
        <Text c="dimmed">{children}</Text>
        {action}
      </Stack>
    </Container>
  );
}

export interface NotFoundStateProps {
  /** What was asked for, e.g. 'This collection'. */
  what: string;
  back: { to: string; label: string };
}

/** A thing the API answered 404 for: gone, or never shared with the caller (product §14 hides both alike). */
export function NotFoundState({ what, back }: NotFoundStateProps) {
  return (
    <NotFoundFrame
      action={
        <Button component={Link} to={back.to} variant="default" leftSection={<IconArrowLeft size={18} />}>
          {back.label}
        </Button>
      }
    >
      {what} does not exist, or it has not been shared with you. If you expected to see it, ask one of its owners or an
      administrator for access.
    </NotFoundFrame>
  );
}
