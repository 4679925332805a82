import { Alert, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface SecretRevealProps {
  name: string;
  secret: string;
  /** What to do next (a Done button). */
  actions?: ReactNode;
}

/** A new token's secret, shown this once, with a copy button and a clear warning. */
export function SecretReveal({ name, secret, actions }: SecretRevealProps) {
  return (
    <Stack gap="md">
      <Alert
        color="yellow"
        variant="light"
        icon={<IconAlertTriangle size={20} />}
        title="Copy your token now"
        // Yellow on yellow is too faint for text: the title reads in the text colour, the panel stays yellow.
        styles={{ title: { color: 'var(--mantine-color-text)' } }}
      >
        This is the only time the secret of “{name}” is shown. Data Lab keeps only a fingerprint of the secret, so
        nobody can show it again: if you lose it, revoke it and create a new one. Keep it like a password and never put
        it in a URL or in code you share.
      </Alert>
      <Stack gap={6}>
        <Text size="sm" fw={600}>
          Your new token
        </Text>
        <Group gap="sm" wrap="nowrap" align="stretch">
          <Code
            block
            flex={1}
            fz="sm"
            data-testid="new-token-secret"
            style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
          >
            {secret}
          </Code>
          <CopyButton value={secret} timeout={3000}>
            {({ copied, copy }) => (
              <Button
                onClick={copy}
                color={copied ? 'teal' : 'blue'}
                leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              >
                {copied ? 'Copied' : 'Copy token'}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Text size="sm" c="dimmed">
          Send it in the Authorization header of each call: <Code>Authorization: Bearer {'<token>'}</Code>. The snippets
          on each data asset’s page show how.
        </Text>
      </Stack>
      {actions ? <Group justify="flex-end">{actions}</Group> : null}
    </Stack>
  );
}
