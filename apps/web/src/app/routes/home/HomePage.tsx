import { Anchor, Button, Code, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconArrowRight, IconLogin } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { PRODUCT_NAME } from '@datalab/contract/texts';
import { isEmbeddedMode } from '../../../config/portal-config.ts';
import { usePortalConfig } from '../../../config/portal-config-context.tsx';
import { useSession } from '../../../lib/auth/session.ts';
import { DemoAccounts } from './DemoAccounts.tsx';
import { GettingStarted } from './GettingStarted.tsx';

export function HomePage() {
  const config = usePortalConfig();
  const { isSignedIn } = useSession();
  useDocumentTitle(PRODUCT_NAME);
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
          <Group>
            {isSignedIn ? (
              <Button component={Link} to={paths.collections} size="md" rightSection={<IconArrowRight size={18} />}>
                Browse collections
              </Button>
            ) : (
              <Button component={Link} to={paths.login} size="md" leftSection={<IconLogin size={18} />}>
                Sign in to get started
              </Button>
            )}
          </Group>
        </Stack>
        <GettingStarted />
        <Text size="sm" c="dimmed">
          Programs will reach data assets through the calling layer at <Code>{config.callingLayerUrl}</Code>, coming
          with access tokens. Questions about access? See{' '}
          <Anchor component={Link} to={paths.policy('contact-us')} size="sm">
            Contact us
          </Anchor>
          .
        </Text>
        {isEmbeddedMode(config) ? <DemoAccounts accounts={config.demoAccounts} /> : null}
      </Stack>
    </Container>
  );
}
