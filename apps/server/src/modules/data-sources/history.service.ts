import {
  assetDefinition,
  assetDefinitionFields,
  type AssetDefinition,
  type AssetDefinitionField,
} from '@datalab/contract/api/asset-versions';
import { webApiRequest } from '@datalab/contract/web-api-request';
import type { Database } from '../../db/database.ts';
import type { AuthUser } from '../../lib/auth-user.ts';
import {
  findClientToolRows,
  findConnectionRow,
  findDataSource,
  findParameterRows,
  findRuleRows,
  findTransformationRows,
} from './repository.ts';
import { findLatestVersion, insertVersion } from './versions.repository.ts';
import { findCredentialSummary } from './web-api.repository.ts';

// Every save of an asset keeps its whole definition as a version, in the save's own transaction: the state the
// save left, read back from the store, so what a version holds is what runs. A save that changes no field of the
// definition keeps no version. An asset saved before versions existed gets its version 1 (saved by nobody known,
// at its last change) lazily: before its next save, or when its history is first read.

/** What a version row's summary column holds (JSON). */
export interface VersionNote {
  kind: 'created' | 'changed' | 'restored' | 'began';
  changed: AssetDefinitionField[];
  restoredFrom?: number;
}

const json = (text: string | null): unknown => JSON.parse(text ?? 'null') as unknown;

/** The asset's whole definition as it is stored now (inside a save's transaction: as the save left it). */
export async function snapshotOf(db: Database, dataSourceId: number): Promise<AssetDefinition> {
  const source = await findDataSource(db, dataSourceId);
  if (!source) throw new Error(`data asset ${dataSourceId} vanished inside its own save`);
  const [connection, parameters, transformations, rules, tools, credential] = await Promise.all([
    source.connection_id === null ? undefined : findConnectionRow(db, source.connection_id),
    findParameterRows(db, source.id),
    findTransformationRows(db, source.id),
    findRuleRows(db, source.id),
    findClientToolRows(db, source.id),
    source.credential_id === null ? undefined : findCredentialSummary(db, source.credential_id),
  ]);
  const webApi = source.kind === 'webapi';
  const request = webApi ? webApiRequest.safeParse(json(source.request_definition)) : undefined;
  return assetDefinition.parse({
    kind: source.kind,
    name: source.name,
    description: source.description,
    connection: connection ? { id: connection.id, name: connection.name } : null,
    sql: webApi ? '' : source.sql_text,
    request: request?.success ? request.data : webApi ? webApiRequest.parse({}) : null,
    credential: credential ? { id: credential.id, name: credential.name } : null,
    cacheTtlSeconds: source.cache_ttl_seconds,
    rowCap: source.row_cap,
    timeoutMs: source.timeout_ms,
    maxExportRows: source.max_export_rows,
    mcpAvailable: source.mcp_available === 1,
    parameters: parameters.map((p) => json(p.definition)),
    transformations: transformations.map((t) => ({
      name: t.name,
      rules: rules.filter((r) => r.transformation_id === t.id).map((r) => json(r.rule)),
    })),
    clientTools: tools.map((c) => ({ tool: c.tool, settings: json(c.settings) })),
  });
}

/** JSON with object keys sorted, so equal values give equal text whatever order their keys were written in. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What each summary field compares: a connection or credential by id (a rename of either is not the asset's). */
function fieldValue(d: AssetDefinition, field: AssetDefinitionField): unknown {
  switch (field) {
    case 'connection':
      return d.connection?.id ?? null;
    case 'credential':
      return d.credential?.id ?? null;
    case 'limits':
      return [d.rowCap, d.timeoutMs, d.maxExportRows];
    case 'cache':
      return d.cacheTtlSeconds;
    default:
      return d[field];
  }
}

/** The fields of the definition that differ between two versions, in the contract's order. */
export function differingFields(before: AssetDefinition, after: AssetDefinition): AssetDefinitionField[] {
  return assetDefinitionFields.filter((f) => stable(fieldValue(before, f)) !== stable(fieldValue(after, f)));
}

export const parseDefinition = (text: string): AssetDefinition => assetDefinition.parse(JSON.parse(text));
export const parseNote = (text: string): VersionNote =>
  text ? (JSON.parse(text) as VersionNote) : { kind: 'changed', changed: [] };

/** Version 1 from the asset's current state, when it has no version yet; call before a save changes anything. */
export async function beginHistory(db: Database, dataSourceId: number): Promise<void> {
  if (await findLatestVersion(db, dataSourceId)) return;
  const source = await findDataSource(db, dataSourceId);
  if (!source) return;
  const note: VersionNote = { kind: 'began', changed: [] };
  await insertVersion(db, {
    data_source_id: dataSourceId,
    version: 1,
    definition: JSON.stringify(await snapshotOf(db, dataSourceId)),
    summary: JSON.stringify(note),
    saved_by_user_id: null,
    saved_by_name: null,
    saved_at: source.updated_at,
  });
}

/**
 * Keeps the asset's state as a new version when it differs from the latest one; the first version of a new asset
 * otherwise. Answers the version written, or null when the save changed nothing.
 */
export async function recordVersion(
  db: Database,
  user: Pick<AuthUser, 'id' | 'name'>,
  dataSourceId: number,
  now: string,
  restoredFrom?: number,
): Promise<number | null> {
  const [latest, definition] = await Promise.all([findLatestVersion(db, dataSourceId), snapshotOf(db, dataSourceId)]);
  const changed = latest ? differingFields(parseDefinition(latest.definition), definition) : [];
  if (latest && changed.length === 0) return null;
  const note: VersionNote = latest
    ? { kind: restoredFrom === undefined ? 'changed' : 'restored', changed, ...(restoredFrom ? { restoredFrom } : {}) }
    : { kind: 'created', changed: [] };
  const version = (latest?.version ?? 0) + 1;
  await insertVersion(db, {
    data_source_id: dataSourceId,
    version,
    definition: JSON.stringify(definition),
    summary: JSON.stringify(note),
    saved_by_user_id: user.id > 0 ? user.id : null,
    saved_by_name: user.name,
    saved_at: now,
  });
  return version;
}
