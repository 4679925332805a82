import { ActionIcon, Code, CopyButton, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** A block of text to paste elsewhere (a URL, a snippet), with a copy button named after it. */
export function CopyableCode({ label, value, block = false }: { label: string; value: string; block?: boolean }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" fw={600}>
          {label}
        </Text>
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow>
              <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`Copy ${label}`}>
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      <Code
        block={block}
        tabIndex={block ? 0 : undefined}
        style={{ whiteSpace: block ? 'pre' : 'normal', overflowX: 'auto' }}
      >
        {value}
      </Code>
    </Stack>
  );
}
