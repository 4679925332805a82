import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconHome } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { PRODUCT_NAME, texts } from '@datalab/contract/texts';
import { DeveloperDetails } from '../../../components/error/DeveloperDetails.tsx';
import { ErrorIllustration } from '../../../components/error/ErrorIllustration.tsx';

/** /error?errorSummary=…&errorMessage=… (product §2); `details` is shown in developer mode only. */
export function ErrorPage() {
  const [searchParams] = useSearchParams();
  const summary = searchParams.get('errorSummary') || texts.generic.summary;
  const message = searchParams.get('errorMessage') || texts.generic.message;
  useDocumentTitle(`${summary} · ${PRODUCT_NAME}`);
  return (
    <Container size="sm" py={64}>
      <Stack align="center" gap="md" ta="center">
        <ErrorIllustration />
        <Title order={1} fz="h2">
          {summary}
        </Title>
        <Text c="dimmed">{message}</Text>
        <Button component={Link} to={paths.home} leftSection={<IconHome size={18} />}>
          Home
        </Button>
        <DeveloperDetails details={searchParams.get('details')} />
      </Stack>
    </Container>
  );
}
