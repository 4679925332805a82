import { Alert, Button, Group, SimpleGrid, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { DataSourceDetail } from '@datalab/contract/api/data-sources';
import { ApiError } from '../../../lib/api-error.ts';
import { useSaveAsset } from '../api/save-asset.ts';
import { draftOf, emptyDraft, type AssetDraft, type AssetKind } from '../model/asset-draft.ts';
import { placeholderSyntax } from '../model/placeholders.ts';
import { runBlocker } from '../model/draft-run.ts';
import { requestParameters } from '../model/request-draft.ts';
import { saveInputOf, savedParameterErrors, savedTransformationErrors } from '../model/save-input.ts';
import type { TransformationDraft } from '../model/transformation-draft.ts';
import { detectParameters } from '../model/detect-parameters.ts';
import { ClientToolsField } from './ClientToolsField.tsx';
import { ClientToolSettings } from './ClientToolSettings.tsx';
import { ConnectionSelect, type EditorConnections } from './ConnectionSelect.tsx';
import { EditorSection } from './EditorSection.tsx';
import { LimitsFields } from './LimitsFields.tsx';
import { ParameterDefinitions } from './ParameterDefinitions.tsx';
import { PreviewPanel } from './PreviewPanel.tsx';
import { SourceEditor } from './SourceEditor.tsx';
import { TransformationsEditor } from './TransformationsEditor.tsx';
import { useDraftRun } from './use-draft-run.ts';

interface AssetEditorProps {
  collectionUid: string;
  connections: EditorConnections;
  /** The asset being changed; none to create one. */
  asset?: DataSourceDetail;
  /** A new asset's starting point (the playground's "Save as data asset"); the first connection otherwise. */
  initialDraft?: AssetDraft;
  onSaved: (saved: DataSourceDetail) => void;
  onCancel: () => void;
  onDirtyChange: (isDirty: boolean) => void;
}

/** How long the transformations rest before the live preview runs again. */
const LIVE_PREVIEW_DELAY_MS = 500;

function firstDraft(connections: EditorConnections): AssetDraft {
  const sql = connections.sql[0];
  if (sql) return emptyDraft(sql.id, 'sql');
  const webApi = connections.webApi[0];
  if (webApi) return { ...emptyDraft(webApi.id, 'webapi'), credentialId: webApi.credentials[0]?.id ?? null };
  return emptyDraft(null);
}

export function AssetEditor(props: AssetEditorProps) {
  const { collectionUid, connections, asset, initialDraft, onSaved, onCancel, onDirtyChange } = props;
  const [draft, setDraft] = useState<AssetDraft>(() =>
    asset ? draftOf(asset) : (initialDraft ?? firstDraft(connections)),
  );
  const [values, setValues] = useState<Record<string, string>>({});
  const runner = useDraftRun(collectionUid);
  const save = useSaveAsset();
  const syntax = placeholderSyntax[draft.kind];
  const detected = useMemo(
    () => (draft.kind === 'sql' ? detectParameters(draft.sql) : requestParameters(draft.request)),
    [draft.kind, draft.sql, draft.request],
  );
  const change = (next: Partial<AssetDraft>) => {
    setDraft((current) => ({ ...current, ...next }));
    onDirtyChange(true);
  };
  const saveErrors = save.error instanceof ApiError ? save.error.errors : {};
  const hasRun = runner.hasRun(draft);
  const liveTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(liveTimer.current), []);

  const handleConnection = (connectionId: number, kind: AssetKind) => {
    const webApi = connections.webApi.find((item) => item.id === connectionId);
    // A new connection's credentials are not the old one's: start with its first (the usual single one).
    const credentialId = webApi && connectionId !== draft.connectionId ? (webApi.credentials[0]?.id ?? null) : null;
    change({ connectionId, kind, credentialId: kind === 'webapi' ? credentialId : null });
    if (connectionId !== draft.connectionId) runner.reset();
  };
  // Live preview: once the draft has run, a change to the transformations runs it again on the sample rows.
  const changeTransformations = (transformations: TransformationDraft[]) => {
    change({ transformations });
    clearTimeout(liveTimer.current);
    if (!runner.hasRunOnce) return;
    const next = { ...draft, transformations };
    liveTimer.current = setTimeout(() => runner.run(next, values), LIVE_PREVIEW_DELAY_MS);
  };
  const handleSave = () => {
    const input = saveInputOf(draft, { collectionUid, uid: asset?.uid });
    if (input) save.mutate(input, { onSuccess: onSaved });
  };
  const errors = { ...runner.errors, ...saveErrors };
  const runLabel = draft.kind === 'sql' ? 'Run' : 'Try';

  return (
    <Stack gap="lg">
      <EditorSection title="Data asset">
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Name"
              required
              value={draft.name}
              error={saveErrors['name']?.join(' ')}
              onChange={(e) => change({ name: e.currentTarget.value })}
            />
            <ConnectionSelect
              connections={connections}
              value={draft.connectionId}
              onChange={handleConnection}
              onlyKind={asset?.kind}
              description={
                asset ? undefined : 'A database makes a SQL asset; a web API makes an asset that sends a request.'
              }
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
      </EditorSection>
      <EditorSection title={draft.kind === 'sql' ? 'SQL' : 'Request'}>
        <SourceEditor draft={draft} connections={connections} onChange={change} errors={errors} />
      </EditorSection>
      <EditorSection title="Parameters">
        <ParameterDefinitions
          parameters={draft.parameters}
          detected={detected}
          syntax={syntax}
          onChange={(parameters) => change({ parameters })}
          collectionUid={collectionUid}
          assetId={asset?.id}
          values={values}
          onValuesChange={setValues}
          savedErrors={savedParameterErrors(save, draft)}
        />
      </EditorSection>
      <EditorSection title="Transformations">
        <TransformationsEditor
          transformations={draft.transformations}
          columns={runner.seenColumns}
          errors={{ ...runner.errors, ...savedTransformationErrors(save, draft) }}
          onChange={changeTransformations}
        />
      </EditorSection>
      <EditorSection title="Client tools">
        <ClientToolsField value={draft.clientTools} onChange={(clientTools) => change({ clientTools })} />
        <ClientToolSettings asset={asset} tools={draft.clientTools} />
      </EditorSection>
      <EditorSection title="AI agents">
        <Switch
          label="Available to AI agents"
          description="A tool of the MCP endpoint for AI assistants of the people and tokens that may call this asset, with its masks and limits."
          checked={draft.mcpAvailable}
          onChange={(event) => change({ mcpAvailable: event.currentTarget.checked })}
        />
      </EditorSection>
      <EditorSection title="Limits and cache">
        <LimitsFields limits={draft} onChange={change} />
      </EditorSection>
      <EditorSection title={runLabel}>
        <PreviewPanel
          parameters={draft.parameters}
          syntax={syntax}
          values={values}
          onValuesChange={setValues}
          runLabel={runLabel}
          onRun={() => runner.run(draft, values)}
          isRunning={runner.isRunning}
          blocker={runBlocker(draft)}
          result={runner.result}
          error={runner.error}
          errors={runner.errors}
        />
      </EditorSection>
      {!hasRun ? (
        <Alert color="blue" icon={<IconInfoCircle size={18} />}>
          {draft.kind === 'sql'
            ? 'Run the SQL as it is now before saving, so that what is saved is known to work.'
            : 'Try the request as it is now before saving, so that what is saved is known to work.'}
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
