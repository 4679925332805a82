import { useState } from 'react';
import { Group, NativeSelect, PasswordInput, Stack, Tabs, Text } from '@mantine/core';
import type { DataSourceDetail } from '@datalab/contract/api/data-sources';
import {
  buildSnippets,
  configuredFormat,
  isBearerToken,
  snippetFormats,
  settingsByTool,
  snippetTools,
  TOKEN_PLACEHOLDER,
  type SnippetFormat,
} from '@datalab/contract/snippets';
import { callingLayerBaseUrl, dataAssetUrl } from '../../../lib/data-api.ts';
import { readParameters } from '../parameters/definition.ts';
import { useDataSourceExamples } from '../api/snippet-examples.ts';
import { CopyableCode } from './CopyableCode.tsx';
import { SnippetCode } from './SnippetCode.tsx';

const formatLabels: Record<SnippetFormat, string> = { json: 'JSON', csv: 'CSV' };

interface CallingSnippetsProps {
  asset: Pick<DataSourceDetail, 'uid' | 'name' | 'parameters' | 'clientToolConfigurations'>;
  /** Values to put in the snippets (a call form's); otherwise defaults, fixed options or examples. */
  values?: Record<string, unknown> | undefined;
}

/**
 * How a program calls the asset: its calling-layer URL and a ready-to-paste call for each client tool the asset's
 * configuration names (curl, Python and JavaScript when it names none). The snippets hold the <YOUR_TOKEN>
 * placeholder; a token pasted in the field below goes into them in this page only, never to the server.
 */
export function CallingSnippets({ asset, values }: CallingSnippetsProps) {
  const [format, setFormat] = useState<SnippetFormat>(() => configuredFormat(asset.clientToolConfigurations) ?? 'json');
  const [token, setToken] = useState('');
  const trimmed = token.trim();
  const isTokenUsable = trimmed === '' || isBearerToken(trimmed);
  const parameters = readParameters(asset.parameters);
  const examples = useDataSourceExamples(asset.uid, parameters, values ?? {});
  const snippets = buildSnippets(snippetTools(asset.clientToolConfigurations), {
    callingLayerUrl: callingLayerBaseUrl(),
    assetUid: asset.uid,
    assetName: asset.name,
    parameters,
    // The form's values win; a dropdown left empty sends its first allowed value rather than an invented one.
    values: { ...examples, ...values },
    format,
    token: isTokenUsable && trimmed !== '' ? trimmed : null,
    toolSettings: settingsByTool(asset.clientToolConfigurations),
  });
  const [first] = snippets;

  return (
    <Stack gap="md">
      <CopyableCode label="Calling-layer URL" value={dataAssetUrl(asset.uid)} />
      <Group align="flex-start" gap="md" grow preventGrowOverflow={false}>
        <NativeSelect
          label="Format"
          description="What the call answers"
          maw={180}
          value={format}
          onChange={(event) => setFormat(event.currentTarget.value as SnippetFormat)}
          data={snippetFormats.map((value) => ({ value, label: formatLabels[value] }))}
        />
        <PasswordInput
          label="Your token (optional)"
          description={`Paste a token to put it in place of ${TOKEN_PLACEHOLDER}. It stays in this page: it is not sent or saved.`}
          autoComplete="off"
          value={token}
          onChange={(event) => setToken(event.currentTarget.value)}
          error={isTokenUsable ? undefined : 'A token has only letters, digits and - . _ ~ + / ='}
        />
      </Group>
      {trimmed !== '' && isTokenUsable ? (
        <Text size="sm" c="orange.8">
          The snippets below now contain your token: keep them to yourself.
        </Text>
      ) : null}
      {first ? (
        <Tabs defaultValue={first.kind}>
          <Tabs.List aria-label="Client tools">
            {snippets.map((snippet) => (
              <Tabs.Tab key={snippet.kind} value={snippet.kind}>
                {snippet.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {snippets.map((snippet) => (
            <Tabs.Panel key={snippet.kind} value={snippet.kind} pt="sm">
              <SnippetCode snippet={snippet} />
            </Tabs.Panel>
          ))}
        </Tabs>
      ) : null}
    </Stack>
  );
}
