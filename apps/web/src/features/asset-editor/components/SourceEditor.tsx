import { Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useSchema } from '../api/get-schema.ts';
import type { AssetDraft } from '../model/asset-draft.ts';
import { requestOf } from '../model/request-draft.ts';
import type { EditorConnections } from './ConnectionSelect.tsx';
import { LazySqlEditor } from './LazySqlEditor.tsx';
import { WebRequestEditor } from './WebRequestEditor.tsx';

interface SourceEditorProps {
  draft: Pick<AssetDraft, 'kind' | 'connectionId' | 'sql' | 'request' | 'credentialId'>;
  connections: EditorConnections;
  onChange: (change: Partial<Pick<AssetDraft, 'sql' | 'request' | 'credentialId'>>) => void;
  /** The last save's or run's 400 errors map. */
  errors: Record<string, string[]>;
}

function SqlSource({ draft, connections, onChange, errors }: SourceEditorProps) {
  const connection = connections.sql.find((item) => item.id === draft.connectionId) ?? null;
  const schema = useSchema(connection ? connection.id : null);
  const completion = useMemo(
    () => Object.fromEntries((schema.data?.tables ?? []).map((t) => [t.name, t.columns.map((c) => c.name)])),
    [schema.data],
  );
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        One read-only statement. Completion offers the connection&apos;s tables and columns (Ctrl+Space).
      </Text>
      <LazySqlEditor
        label="SQL"
        value={draft.sql}
        onChange={(sql) => onChange({ sql })}
        dialect={connection?.kind ?? 'postgres'}
        schema={completion}
      />
      {errors['sql'] ? (
        <Text c="red.9" size="sm">
          {errors['sql'].join(' ')}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The asset's source: SQL with completion for a database, or the request for a web API. */
export function SourceEditor(props: SourceEditorProps) {
  const { draft, connections, onChange, errors } = props;
  if (draft.kind === 'sql') return <SqlSource {...props} />;
  const request = requestOf(draft.request);
  return (
    <WebRequestEditor
      connection={connections.webApi.find((item) => item.id === draft.connectionId) ?? null}
      request={draft.request}
      onChange={(next) => onChange({ request: next })}
      credentialId={draft.credentialId}
      onCredentialChange={(credentialId) => onChange({ credentialId })}
      errors={errors}
      problem={request.ok ? null : request.error}
    />
  );
}
