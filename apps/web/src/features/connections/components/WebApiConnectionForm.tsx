import { NumberInput, SimpleGrid, Stack, TagsInput, Text, TextInput, Title } from '@mantine/core';
import type { WebApiConnection } from '@datalab/contract/api/web-api';
import { monoInput } from '../../../components/forms/mono-input.ts';
import { KeyValueEditor } from '../../../components/forms/KeyValueEditor.tsx';
import { useCreateWebApiConnection } from '../api/create-web-api-connection.ts';
import { useTestWebApiConnection } from '../api/test-web-api-connection.ts';
import { useUpdateWebApiConnection, type WebApiConnectionSettings } from '../api/update-web-api-connection.ts';
import {
  newWebApiDraft,
  webApiDraftOf,
  webApiSettingsOf,
  type WebApiConnectionDraft,
} from '../model/web-api-connection-draft.ts';
import { useSettingsDraft } from '../model/use-settings-draft.ts';
import { WebApiTestResult } from './WebApiTestResult.tsx';
import { ConnectionFormFrame, savedBy, type SettingsFormProps } from './ConnectionFormFrame.tsx';
import { NameRow } from './NameRow.tsx';
import { DescriptionField } from './DescriptionField.tsx';

interface WebApiSettingsFormProps extends SettingsFormProps<WebApiConnectionSettings> {
  stored?: WebApiConnection;
  initial: WebApiConnectionDraft;
  /** Whether the caller may change the allowed internal hosts (an administrator who is an Owner). */
  canChangeAllowedHosts: boolean;
}

type NumberField = {
  [K in keyof WebApiConnectionDraft]: WebApiConnectionDraft[K] extends number ? K : never;
}[keyof WebApiConnectionDraft];

const LIMITS: { field: NumberField; label: string; min: number; max: number }[] = [
  { field: 'connectTimeoutMs', label: 'Connect timeout (ms)', min: 100, max: 60_000 },
  { field: 'headersTimeoutMs', label: 'Headers timeout (ms)', min: 100, max: 300_000 },
  { field: 'bodyTimeoutMs', label: 'Body timeout (ms)', min: 100, max: 600_000 },
  { field: 'maxReplyKb', label: 'Largest reply (KiB)', min: 1, max: 512 * 1024 },
  { field: 'maxPages', label: 'Pages per call', min: 1, max: 100_000 },
  { field: 'maxConnections', label: 'Parallel requests', min: 1, max: 100 },
  { field: 'acquireTimeoutMs', label: 'Queue wait (ms)', min: 1, max: 60_000 },
  { field: 'retries', label: 'Retries', min: 0, max: 5 },
];

/** A Web API connection's settings with Test (on the settings as typed, saved or not) and Save. */
function WebApiSettingsForm(props: WebApiSettingsFormProps) {
  const { collectionUid, stored, canChangeAllowedHosts, onDirtyChange } = props;
  const test = useTestWebApiConnection(collectionUid, stored?.id);
  const failures = { test: test.error, save: props.saveError };
  const { draft, set, errors, errorOf } = useSettingsDraft<WebApiConnectionDraft>(
    props.initial,
    failures,
    onDirtyChange,
  );
  const settings = () => webApiSettingsOf(draft, { canChangeAllowedHosts, storedHosts: stored?.allowedHosts ?? [] });
  const headerErrors = Object.entries(errors)
    .filter(([key]) => key === 'headers' || key.startsWith('headers.'))
    .flatMap(([, messages]) => messages);

  return (
    <ConnectionFormFrame
      label="Web API connection settings"
      settings={settings}
      form={props}
      test={test}
      result={test.data ? <WebApiTestResult result={test.data} /> : null}
    >
      <NameRow value={draft.name} error={errorOf('name')} onChange={(name) => set('name', name)}>
        <TextInput
          label="Base URL"
          description="http or https; every request goes to a path under it."
          required
          styles={monoInput}
          value={draft.baseUrl}
          error={errorOf('baseUrl')}
          onChange={(e) => set('baseUrl', e.currentTarget.value)}
        />
      </NameRow>
      <DescriptionField value={draft.description} onChange={(description) => set('description', description)} />
      <Stack gap={4}>
        <Title order={3} fz="h6">
          Default headers
        </Title>
        <Text size="xs" c="dimmed">
          Sent with every request; a data asset&apos;s own headers override them. Keep secrets in credentials.
        </Text>
        <KeyValueEditor
          item="header"
          ignoreCase
          rows={draft.headers}
          onChange={(headers) => set('headers', headers)}
          error={headerErrors.join(' ') || undefined}
        />
      </Stack>
      <TagsInput
        label="Allowed internal hosts"
        description={
          canChangeAllowedHosts
            ? 'Hosts (host or host:port) this connection may reach although they are internal. Every change is written to the audit log. Press Enter after each.'
            : 'Hosts this connection may reach although they are internal. Only an administrator who owns the collection changes them.'
        }
        placeholder={canChangeAllowedHosts ? 'api.internal:8443' : undefined}
        value={draft.allowedHosts}
        disabled={!canChangeAllowedHosts}
        error={errorOf('allowedHosts')}
        onChange={(hosts) => set('allowedHosts', hosts)}
      />
      <Stack gap={4}>
        <Title order={3} fz="h6">
          Limits and timeouts
        </Title>
        <Text size="xs" c="dimmed">
          The headers timeout runs until the reply&apos;s headers arrive, the body timeout over the whole reply.
          Requests beyond the parallel ones wait in a queue; only idempotent requests are retried.
        </Text>
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          {LIMITS.map((limit) => (
            <NumberInput
              key={limit.field}
              label={limit.label}
              min={limit.min}
              max={limit.max}
              value={draft[limit.field]}
              error={errorOf(limit.field === 'maxReplyKb' ? 'maxReplyBytes' : limit.field)}
              onChange={(v) => set(limit.field, typeof v === 'number' ? v : limit.min)}
            />
          ))}
        </SimpleGrid>
      </Stack>
    </ConnectionFormFrame>
  );
}

interface WebApiConnectionFormProps {
  connection: WebApiConnection;
  onSaved: (saved: WebApiConnection) => void;
  onCancel: () => void;
  onDirtyChange?: (isDirty: boolean) => void;
}

/** A stored Web API connection's settings (its credentials are managed beside them). */
export function WebApiConnectionForm({ connection, onSaved, onCancel, onDirtyChange }: WebApiConnectionFormProps) {
  const update = useUpdateWebApiConnection(connection);
  return (
    <WebApiSettingsForm
      collectionUid={connection.collectionUid}
      stored={connection}
      initial={webApiDraftOf(connection)}
      canChangeAllowedHosts={connection.canChangeAllowedHosts}
      {...savedBy(update, onSaved)}
      submitLabel="Save"
      onCancel={onCancel}
      onDirtyChange={onDirtyChange}
    />
  );
}

interface NewWebApiConnectionFormProps {
  collectionUid: string;
  canChangeAllowedHosts: boolean;
  onCreated: (created: WebApiConnection) => void;
  onCancel: () => void;
}

/** A Web API connection not created yet: tested on the settings as typed, then created. */
export function NewWebApiConnectionForm(props: NewWebApiConnectionFormProps) {
  const create = useCreateWebApiConnection(props.collectionUid);
  return (
    <WebApiSettingsForm
      collectionUid={props.collectionUid}
      initial={newWebApiDraft()}
      canChangeAllowedHosts={props.canChangeAllowedHosts}
      {...savedBy(create, props.onCreated)}
      submitLabel="Create connection"
      onCancel={props.onCancel}
    />
  );
}
