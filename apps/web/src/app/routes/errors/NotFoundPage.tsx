import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconHome } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { PRODUCT_NAME, texts } from '@datalab/contract/texts';
import { ErrorIllustration } from '../../../components/error/ErrorIllustration.tsx';

export function NotFoundPage() {
  const location = useLocation();
  useDocumentTitle(`Not found · ${PRODUCT_NAME}`);
  return (
    <Container size="sm" py={64}>
      <Stack align="center" gap="md" ta="center">
        <ErrorIllustration />
        <Title order={1} fz="h2">
          {texts.notFound}
        </Title>
        <Text c="dimmed">
          Nothing in {PRODUCT_NAME} lives at <code>{location.pathname}</code>. Check the address, or start again from
          the home page.
        </Text>
        <Button component={Link} to={paths.home} leftSection={<IconHome size={18} />}>
          Home
        </Button>
      </Stack>
    </Container>
  );
}
