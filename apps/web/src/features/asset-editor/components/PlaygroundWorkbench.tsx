import { Button, Group, NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDeviceFloppy } from '@tabler/icons-react';
import { useMemo, useState, type ReactNode } from 'react';
import type { AssetDraft, AssetKind } from '../model/asset-draft.ts';
import { detectParameters } from '../model/detect-parameters.ts';
import { runBlocker } from '../model/draft-run.ts';
import { placeholderSyntax } from '../model/placeholders.ts';
import {
  assetDraftOf,
  canSaveAsAsset,
  emptyPlayground,
  runnableDraft,
  type PlaygroundDraft,
} from '../model/playground.ts';
import { requestParameters } from '../model/request-draft.ts';
import { ConnectionSelect, type EditorConnections } from './ConnectionSelect.tsx';
import { EditorSection } from './EditorSection.tsx';
import { PlaygroundParameters } from './PlaygroundParameters.tsx';
import { PreviewPanel } from './PreviewPanel.tsx';
import { SourceEditor } from './SourceEditor.tsx';
import { useDraftRun } from './use-draft-run.ts';

interface PlaygroundWorkbenchProps {
  collectionUid: string;
  connections: EditorConnections;
  /** The collection picker, shown beside the connection. */
  collectionField: ReactNode;
  /** Opens the editor of a new asset in this collection with this draft. */
  onSaveAsAsset: (draft: AssetDraft) => void;
}

function firstPlayground(connections: EditorConnections): PlaygroundDraft {
  const sql = connections.sql[0];
  if (sql) return emptyPlayground(sql.id, 'sql');
  const webApi = connections.webApi[0];
  if (webApi) return emptyPlayground(webApi.id, 'webapi', webApi.credentials[0]?.id ?? null);
  return emptyPlayground(null, 'sql');
}

/**
 * Ad-hoc SQL or HTTP on a connection the caller owns: write, give the placeholders' values, run, and read the grid,
 * the timings and the upstream exchange. Nothing is saved; the server runs it under the connection's limits as it
 * would a stored asset ("Try" and the SQL preview).
 */
export function PlaygroundWorkbench(props: PlaygroundWorkbenchProps) {
  const { collectionUid, connections, collectionField, onSaveAsAsset } = props;
  const [draft, setDraft] = useState<PlaygroundDraft>(() => firstPlayground(connections));
  const [values, setValues] = useState<Record<string, string>>({});
  const runner = useDraftRun(collectionUid);
  const syntax = placeholderSyntax[draft.kind];
  const names = useMemo(
    () => (draft.kind === 'sql' ? detectParameters(draft.sql) : requestParameters(draft.request)),
    [draft.kind, draft.sql, draft.request],
  );
  const change = (next: Partial<PlaygroundDraft>) => setDraft((current) => ({ ...current, ...next }));
  const runnable = runnableDraft(draft, names);

  const handleConnection = (connectionId: number, kind: AssetKind) => {
    const webApi = connections.webApi.find((item) => item.id === connectionId);
    change({ connectionId, kind, credentialId: webApi?.credentials[0]?.id ?? null });
    runner.reset();
  };

  return (
    <Stack gap="lg">
      <EditorSection title="Where it runs">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {collectionField}
          <ConnectionSelect connections={connections} value={draft.connectionId} onChange={handleConnection} />
          <NumberInput
            label="Timeout (ms)"
            min={100}
            max={600_000}
            value={draft.timeoutMs}
            onChange={(v) => change({ timeoutMs: Number(v) || 100 })}
          />
        </SimpleGrid>
      </EditorSection>
      <EditorSection title={draft.kind === 'sql' ? 'SQL' : 'HTTP request'}>
        <SourceEditor draft={draft} connections={connections} onChange={change} errors={runner.errors} />
      </EditorSection>
      <EditorSection title="Parameter values">
        <PlaygroundParameters
          names={names}
          syntax={syntax}
          settings={draft.parameters}
          onSettingsChange={(name, setting) => change({ parameters: { ...draft.parameters, [name]: setting } })}
          values={values}
          onValuesChange={setValues}
          errors={runner.errors}
        />
      </EditorSection>
      <EditorSection title="Result">
        <PreviewPanel
          parameters={[]}
          syntax={syntax}
          values={values}
          onValuesChange={setValues}
          runLabel="Run"
          onRun={() => runner.run(runnable, values)}
          isRunning={runner.isRunning}
          blocker={runBlocker(runnable)}
          result={runner.result}
          error={runner.error}
          errors={runner.errors}
        />
      </EditorSection>
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          Nothing here is saved. Keep it as a data asset of the collection to name it, describe it and share it.
        </Text>
        <Button
          variant="light"
          leftSection={<IconDeviceFloppy size={16} />}
          disabled={!canSaveAsAsset(draft)}
          onClick={() => onSaveAsAsset(assetDraftOf(draft, names))}
        >
          Save as data asset
        </Button>
      </Group>
    </Stack>
  );
}
