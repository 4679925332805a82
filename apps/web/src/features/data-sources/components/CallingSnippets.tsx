import { Stack, Text } from '@mantine/core';
import { dataAssetUrl } from '../../../lib/data-api.ts';
import type { FormParameter } from '../parameters/definition.ts';
import { curlSnippet, exampleValues, pythonSnippet, TOKEN_VARIABLE } from '../parameters/snippets.ts';
import { CopyableCode } from './CopyableCode.tsx';

/** How a program calls the asset: its calling-layer URL and ready-to-paste curl and Python, with no token in them. */
export function CallingSnippets({ uid, parameters }: { uid: string; parameters: readonly FormParameter[] }) {
  const url = dataAssetUrl(uid);
  const values = exampleValues(parameters);
  return (
    <Stack gap="md">
      <CopyableCode label="Calling-layer URL" value={url} />
      <Text size="sm" c="dimmed">
        Set {TOKEN_VARIABLE} to one of your access tokens first. Add <code>format=csv</code>, <code>ndjson</code> or{' '}
        <code>xlsx</code> for a file of the whole result.
      </Text>
      <CopyableCode label="curl" value={curlSnippet(url, values)} block />
      <CopyableCode label="Python" value={pythonSnippet(url, values)} block />
    </Stack>
  );
}
