import { Anchor, Code, Container, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Link, Navigate } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { PRODUCT_NAME } from '@datalab/contract/texts';
import { usePortalConfig } from '../../../config/portal-config-context.tsx';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { PageLoader } from '../../../components/page/PageLoader.tsx';
import { useCurrentUser } from '../../../features/account/api/get-current-user.ts';
import { GettingStarted } from './GettingStarted.tsx';

/**
 * Home, for signed-in users: what Data Lab is and what this user can do now. A Digital Lab partner and nothing
 * else has no use for the portal's home: they land in the Digital Lab (after sign-in too, whose fallback is home).
 */
export function HomePage() {
  const config = usePortalConfig();
  const currentUser = useCurrentUser();
  useDocumentTitle(PRODUCT_NAME);
  if (currentUser.isPending) return <PageLoader label="Loading your account" />;
  if (currentUser.isError) return <InlineError error={currentUser.error} />;
  const user = currentUser.data;
  if (user.isDigitalLabOnly) return <Navigate to={paths.digitalLabTokens} replace />;
  return (
    <Container size="xl" py={48}>
      <Stack gap={48}>
        <Stack gap="md" maw={760}>
          <Title order={1} fz={40} lh={1.15}>
            Find data, call it, and share it safely
          </Title>
          <Text size="lg" c="dimmed">
            {PRODUCT_NAME} is where data owners publish their data as <strong>data assets</strong> — a parameterised SQL
            query or a Web API request — grouped in <strong>collections</strong>. You call an asset here in the portal,
            or from your own programs with an access token; your data roles on each collection decide what you can see,
            call and change.
          </Text>
        </Stack>
        <GettingStarted user={user} />
        <Text size="sm" c="dimmed">
          Programs reach data assets through the calling layer at <Code>{config.callingLayerUrl}</Code>, with a personal
          access token; each asset&apos;s page has ready-made snippets. Questions about access? See{' '}
          <Anchor component={Link} to={paths.policy('contact-us')} size="sm">
            Contact us
          </Anchor>
          .
        </Text>
      </Stack>
    </Container>
  );
}
