import { Select } from '@mantine/core';
import type { SqlConnection } from '@datalab/contract/api/sql-connections';
import type { WebApiConnection } from '@datalab/contract/api/web-api';
import type { AssetKind } from '../model/asset-draft.ts';

const driverNames = { postgres: 'PostgreSQL', mysql: 'MySQL', sqlite: 'SQLite' } as const;

export interface EditorConnections {
  sql: readonly SqlConnection[];
  webApi: readonly WebApiConnection[];
}

/** The kind of the connection with this id: the kind of asset it runs. */
export function kindOfConnection(connections: EditorConnections, id: number | null): AssetKind | null {
  if (connections.sql.some((c) => c.id === id)) return 'sql';
  if (connections.webApi.some((c) => c.id === id)) return 'webapi';
  return null;
}

interface ConnectionSelectProps {
  connections: EditorConnections;
  value: number | null;
  onChange: (id: number, kind: AssetKind) => void;
  /** Only connections of this kind (a stored asset keeps its kind). */
  onlyKind?: AssetKind;
  error?: string;
  description?: string;
}

/** Databases and web APIs, grouped: the choice of connection decides whether the asset is SQL or a web request. */
export function ConnectionSelect({
  connections,
  value,
  onChange,
  onlyKind,
  error,
  description,
}: ConnectionSelectProps) {
  const groups = [];
  if (onlyKind !== 'webapi' && connections.sql.length > 0) {
    groups.push({
      group: 'Databases (SQL)',
      items: connections.sql.map((c) => ({ value: String(c.id), label: `${c.name} (${driverNames[c.kind]})` })),
    });
  }
  if (onlyKind !== 'sql' && connections.webApi.length > 0) {
    groups.push({
      group: 'Web APIs',
      items: connections.webApi.map((c) => ({ value: String(c.id), label: `${c.name} (Web API)` })),
    });
  }
  return (
    <Select
      label="Connection"
      required
      data={groups}
      value={value === null ? null : String(value)}
      allowDeselect={false}
      description={description}
      error={error}
      onChange={(next) => {
        const id = Number(next);
        const kind = kindOfConnection(connections, id);
        if (next !== null && kind) onChange(id, kind);
      }}
    />
  );
}
