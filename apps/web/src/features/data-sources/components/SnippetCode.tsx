import { Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import type { Snippet } from '@datalab/contract/snippets';

/** Saves text as a file, in the browser only. */
function download(fileName: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.click();
  URL.revokeObjectURL(url);
}

/** One snippet: how to run it, its code, and buttons to copy it or save it as a file. */
export function SnippetCode({ snippet }: { snippet: Snippet }) {
  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="xs">
        <Text size="sm" c="dimmed">
          {snippet.howTo}
        </Text>
        <Group gap="xs">
          <CopyButton value={snippet.code} timeout={2000}>
            {({ copied, copy }) => (
              <Button
                size="xs"
                variant="light"
                color={copied ? 'teal' : 'blue'}
                leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                onClick={copy}
                aria-label={`Copy the ${snippet.label} snippet`}
              >
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconDownload size={14} />}
            onClick={() => download(snippet.fileName, snippet.code)}
            aria-label={`Download the ${snippet.label} snippet as ${snippet.fileName}`}
          >
            {snippet.fileName}
          </Button>
        </Group>
      </Group>
      <Code block tabIndex={0} data-snippet={snippet.kind} style={{ whiteSpace: 'pre', overflowX: 'auto' }}>
        {snippet.code}
      </Code>
    </Stack>
  );
}
