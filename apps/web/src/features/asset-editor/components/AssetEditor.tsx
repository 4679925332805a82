import {
  Alert,
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { DataSourceDetail } from '@datalab/contract/api/data-sources';
import type { SqlConnection } from '@datalab/contract/api/sql-connections';
import { ApiError } from '../../../lib/api-error.ts';
import { useSchema } from '../api/get-schema.ts';
import { usePreviewAsset } from '../api/preview-asset.ts';
import { useSaveAsset } from '../api/save-asset.ts';
import { definitionsOf, draftOf, emptyDraft, type AssetDraft } from '../model/asset-draft.ts';
import { transformationInputs, type TransformationDraft } from '../model/transformation-draft.ts';
import { detectParameters } from '../model/detect-parameters.ts';
import { ClientToolsField } from './ClientToolsField.tsx';
import { LazySqlEditor } from './LazySqlEditor.tsx';
import { ParameterDefinitions } from './ParameterDefinitions.tsx';
import { PreviewPanel } from './PreviewPanel.tsx';
import { TransformationsEditor } from './TransformationsEditor.tsx';

interface AssetEditorProps {
  collectionUid: string;
  connections: readonly SqlConnection[];
  /** The asset being changed; none to create one. */
  asset?: DataSourceDetail;
  onSaved: (saved: DataSourceDetail) => void;
  onCancel: () => void;
  onDirtyChange: (isDirty: boolean) => void;
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title}>
      <Title order={2} fz="h4" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** What the last successful Run ran: Save is offered once the SQL, parameters and transformations have run. */
const runKey = (draft: AssetDraft) =>
  JSON.stringify([
    draft.connectionId,
    draft.sql,
    definitionsOf(draft.parameters),
    transformationInputs(draft.transformations),
  ]);
/** How long the transformations rest before the live preview runs again. */
const LIVE_PREVIEW_DELAY_MS = 500;

export function AssetEditor({ collectionUid, connections, asset, onSaved, onCancel, onDirtyChange }: AssetEditorProps) {
  const [draft, setDraft] = useState<AssetDraft>(() =>
    asset ? draftOf(asset) : emptyDraft(connections[0]?.id ?? null),
  );
  const [values, setValues] = useState<Record<string, string>>({});
  const [lastRun, setLastRun] = useState<string | null>(null);
  // Every column a preview has shown, for the rules' suggestions: a failed preview (a rule being typed) or a rule
  // that drops columns does not take them away.
  const [seenColumns, setSeenColumns] = useState<readonly string[]>([]);
  const preview = usePreviewAsset();
  const save = useSaveAsset();
  const connection = connections.find((item) => item.id === draft.connectionId) ?? null;
  const schema = useSchema(draft.connectionId);
  const completion = useMemo(
    () => Object.fromEntries((schema.data?.tables ?? []).map((t) => [t.name, t.columns.map((c) => c.name)])),
    [schema.data],
  );
  const detected = useMemo(() => detectParameters(draft.sql), [draft.sql]);
  const change = (next: Partial<AssetDraft>) => {
    setDraft((current) => ({ ...current, ...next }));
    onDirtyChange(true);
  };
  const saveErrors = save.error instanceof ApiError ? save.error.errors : {};
  const previewErrors = preview.error instanceof ApiError ? preview.error.errors : {};
  const hasRun = lastRun === runKey(draft) && preview.isSuccess;
  const liveTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(liveTimer.current), []);

  const runPreview = (toRun: AssetDraft) => {
    if (toRun.connectionId === null) return;
    const key = runKey(toRun);
    preview.mutate(
      {
        collectionUid,
        connectionId: toRun.connectionId,
        sql: toRun.sql,
        parameters: definitionsOf(toRun.parameters),
        transformations: transformationInputs(toRun.transformations),
        values: Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '')),
        timeoutMs: toRun.timeoutMs,
      },
      {
        onSuccess: (result) => {
          setLastRun(key);
          setSeenColumns((seen) => [...new Set([...seen, ...result.columns.map((column) => column.name)])]);
        },
      },
    );
  };
  const handleRun = () => runPreview(draft);
  // Live preview: once the SQL has run, a change to the transformations runs it again on the sample rows.
  const changeTransformations = (transformations: TransformationDraft[]) => {
    change({ transformations });
    clearTimeout(liveTimer.current);
    if (lastRun === null) return;
    const next = { ...draft, transformations };
    liveTimer.current = setTimeout(() => runPreview(next), LIVE_PREVIEW_DELAY_MS);
  };
  const handleSave = () => {
    if (draft.connectionId === null) return;
    const { name, description, sql, cacheTtlSeconds, rowCap, timeoutMs, maxExportRows } = draft;
    const common = {
      connectionId: draft.connectionId,
      name,
      description,
      sql,
      cacheTtlSeconds,
      rowCap,
      timeoutMs,
      maxExportRows,
    };
    const parameters = definitionsOf(draft.parameters);
    const transformations = transformationInputs(draft.transformations);
    const { clientTools } = draft;
    const input = asset
      ? { update: { uid: asset.uid, ...common, parameters, transformations }, clientTools }
      : { create: { collectionUid, ...common, parameters, transformations }, clientTools };
    save.mutate(input, { onSuccess: onSaved });
  };

  return (
    <Stack gap="lg">
      <Section title="Data asset">
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Name"
              required
              value={draft.name}
              error={saveErrors['name']?.join(' ')}
              onChange={(e) => change({ name: e.currentTarget.value })}
            />
            <Select
              label="Connection"
              required
              data={connections.map((c) => ({ value: String(c.id), label: `${c.name} (${c.kind})` }))}
              value={draft.connectionId === null ? null : String(draft.connectionId)}
              onChange={(value) => change({ connectionId: value === null ? null : Number(value) })}
              error={saveErrors['connectionId']?.join(' ')}
            />
          </SimpleGrid>
          <Textarea
            label="Description"
            autosize
            minRows={2}
            value={draft.description}
            onChange={(e) => change({ description: e.currentTarget.value })}
          />
        </Stack>
      </Section>
      <Section title="SQL">
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            One read-only statement. Completion offers the connection&apos;s tables and columns (Ctrl+Space).
          </Text>
          <LazySqlEditor
            label="SQL"
            value={draft.sql}
            onChange={(sql) => change({ sql })}
            dialect={connection?.kind ?? 'postgres'}
            schema={completion}
          />
          {saveErrors['sql'] ? (
            <Text c="red.8" size="sm">
              {saveErrors['sql'].join(' ')}
            </Text>
          ) : null}
        </Stack>
      </Section>
      <Section title="Parameters">
        <ParameterDefinitions
          parameters={draft.parameters}
          detected={detected}
          onChange={(parameters) => change({ parameters })}
        />
      </Section>
      <Section title="Transformations">
        <TransformationsEditor
          transformations={draft.transformations}
          columns={seenColumns}
          errors={previewErrors}
          onChange={changeTransformations}
        />
      </Section>
      <Section title="Client tools">
        <ClientToolsField value={draft.clientTools} onChange={(clientTools) => change({ clientTools })} />
      </Section>
      <Section title="Limits and cache">
        <SimpleGrid cols={{ base: 2, md: 4 }}>
          <NumberInput
            label="Rows per interactive call, at most"
            min={1}
            max={100_000}
            value={draft.rowCap}
            onChange={(v) => change({ rowCap: Number(v) || 1 })}
          />
          <NumberInput
            label="Rows per download, at most"
            min={1}
            max={10_000_000}
            value={draft.maxExportRows}
            onChange={(v) => change({ maxExportRows: Number(v) || 1 })}
          />
          <NumberInput
            label="Timeout (ms)"
            min={100}
            max={600_000}
            value={draft.timeoutMs}
            onChange={(v) => change({ timeoutMs: Number(v) || 100 })}
          />
          <NumberInput
            label="Cache for (s, 0 = off)"
            min={0}
            max={86_400}
            value={draft.cacheTtlSeconds}
            onChange={(v) => change({ cacheTtlSeconds: Number(v) || 0 })}
          />
        </SimpleGrid>
      </Section>
      <Section title="Run">
        <PreviewPanel
          parameters={draft.parameters}
          values={values}
          onValuesChange={setValues}
          onRun={handleRun}
          isRunning={preview.isPending}
          canRun={draft.connectionId !== null && draft.sql.trim() !== ''}
          result={preview.data}
          error={preview.error}
          errors={previewErrors}
        />
      </Section>
      {!hasRun ? (
        <Alert color="blue" icon={<IconInfoCircle size={18} />}>
          Run the SQL as it is now before saving, so that what is saved is known to work.
        </Alert>
      ) : null}
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button onClick={handleSave} loading={save.isPending} disabled={!hasRun || draft.name.trim() === ''}>
          Save
        </Button>
      </Group>
    </Stack>
  );
}
