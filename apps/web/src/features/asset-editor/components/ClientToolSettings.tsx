import { useMemo, useState } from 'react';
import { Alert, Button, Code, Group, NativeSelect, NumberInput, Stack, Switch, Tabs, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import {
  SNIPPET_TIMEOUT_MAX_SECONDS,
  type ClientTool,
  type DataSourceDetail,
} from '@datalab/contract/api/data-sources';
import { buildSnippets, type SnippetFormat } from '@datalab/contract/snippets';
import { InlineError } from '../../../components/error/InlineError.tsx';
import { callingLayerBaseUrl } from '../../../lib/data-api.ts';
import { useSaveClientToolSettings } from '../api/save-client-tool-settings.ts';
import { clientToolLabels } from '../model/client-tools.ts';

type Settings = Record<string, unknown>;

interface ClientToolSettingsProps {
  /** The saved asset; a new one gets its settings once saved. */
  asset: DataSourceDetail | undefined;
  /** The tools ticked in the editor. */
  tools: readonly ClientTool[];
}

const formatOptions = [
  { value: '', label: 'As the caller picks (JSON)' },
  { value: 'json', label: 'JSON' },
  { value: 'csv', label: 'CSV' },
];

function initialSettings(asset: DataSourceDetail | undefined): Partial<Record<ClientTool, Settings>> {
  return Object.fromEntries((asset?.clientToolConfigurations ?? []).map((c) => [c.tool, { ...c.settings }]));
}

/** Without a member, rather than with it set to undefined (the server keeps what it is sent). */
function withMember(settings: Settings, name: string, value: unknown): Settings {
  const next = { ...settings };
  if (value === undefined) delete next[name];
  else next[name] = value;
  return next;
}

/**
 * Each ticked tool's settings — the format its snippets start with, how long they wait for the answer, and for
 * Python whether a pandas snippet is offered — with the tool's snippets shown as callers will see them, updated
 * as the settings change. Saved per tool, apart from the asset's own save.
 */
export function ClientToolSettings({ asset, tools }: ClientToolSettingsProps) {
  const [settings, setSettings] = useState(() => initialSettings(asset));
  const [selected, setSelected] = useState<ClientTool | null>(tools[0] ?? null);
  const [isSaved, setSaved] = useState(false);
  const save = useSaveClientToolSettings(asset?.uid ?? '');
  const tool = selected && tools.includes(selected) ? selected : (tools[0] ?? null);
  const current = (tool && settings[tool]) ?? {};
  const change = (name: string, value: unknown) => {
    if (!tool) return;
    setSettings((all) => ({ ...all, [tool]: withMember(all[tool] ?? {}, name, value) }));
    setSaved(false);
  };
  const format = (current['format'] === 'csv' ? 'csv' : 'json') as SnippetFormat;
  const snippets = useMemo(
    () =>
      tool && asset
        ? buildSnippets([tool], {
            callingLayerUrl: callingLayerBaseUrl(),
            assetUid: asset.uid,
            assetName: asset.name,
            parameters: asset.parameters,
            format,
            toolSettings: settings,
          })
        : [],
    [tool, asset, format, settings],
  );

  if (tools.length === 0) return null;
  if (!asset) {
    return (
      <Text size="sm" c="dimmed">
        Once the asset is saved, each tool's settings (format, timeout, pandas for Python) can be changed here.
      </Text>
    );
  }
  const timeout = current['timeoutSeconds'];
  const timeoutError =
    typeof timeout === 'number' && (timeout < 1 || timeout > SNIPPET_TIMEOUT_MAX_SECONDS || !Number.isInteger(timeout))
      ? `A whole number of seconds from 1 to ${SNIPPET_TIMEOUT_MAX_SECONDS}`
      : undefined;
  const handleSave = () =>
    save.mutate(
      tools.map((name) => [name, settings[name] ?? {}]),
      { onSuccess: () => setSaved(true) },
    );

  return (
    <Stack gap="sm" mt="md" aria-label="Client tool settings" component="section">
      <Text fw={600} size="sm">
        Settings of each tool
      </Text>
      <Tabs value={tool} onChange={(value) => setSelected(value as ClientTool)}>
        <Tabs.List aria-label="Tool to set">
          {tools.map((name) => (
            <Tabs.Tab key={name} value={name}>
              {clientToolLabels[name]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {tool ? (
        <Group align="flex-start" gap="md" wrap="wrap">
          <NativeSelect
            label="Format"
            description="What its snippets ask for"
            w={220}
            value={typeof current['format'] === 'string' ? current['format'] : ''}
            data={formatOptions}
            onChange={(event) => change('format', event.currentTarget.value || undefined)}
          />
          <NumberInput
            label="Timeout (seconds)"
            description="Empty: the tool's own default"
            w={220}
            min={1}
            max={SNIPPET_TIMEOUT_MAX_SECONDS}
            allowDecimal={false}
            allowNegative={false}
            value={typeof timeout === 'number' ? timeout : ''}
            onChange={(value) => change('timeoutSeconds', typeof value === 'number' ? value : undefined)}
            error={timeoutError}
          />
          {tool === 'python' ? (
            <Switch
              mt={30}
              label="Also offer a pandas snippet"
              checked={current['pandas'] !== false}
              onChange={(event) => change('pandas', event.currentTarget.checked ? undefined : false)}
            />
          ) : null}
        </Group>
      ) : null}
      {snippets.map((snippet) => (
        <div key={snippet.kind}>
          <Text size="xs" c="dimmed" mb={4}>
            {snippet.label} — as callers will see it
          </Text>
          <Code block aria-label={`${snippet.label} snippet`} style={{ maxHeight: 260, overflow: 'auto' }}>
            {snippet.code}
          </Code>
        </div>
      ))}
      {save.error ? <InlineError error={save.error} /> : null}
      <Group gap="sm">
        <Button variant="light" onClick={handleSave} loading={save.isPending} disabled={timeoutError !== undefined}>
          Save tool settings
        </Button>
        {isSaved ? (
          <Alert variant="light" color="teal" p={6} icon={<IconCheck size={16} />}>
            Saved
          </Alert>
        ) : null}
      </Group>
    </Stack>
  );
}
