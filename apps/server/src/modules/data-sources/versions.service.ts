import type {
  AssetDefinition,
  AssetDefinitionField,
  AssetVersion,
  AssetVersionSummary,
} from '@datalab/contract/api/asset-versions';
import type { DataRole } from '@datalab/contract/api/data-roles';
import { updateSqlDataSource } from '@datalab/contract/api/sql-data-sources';
import { updateWebApiDataSource } from '@datalab/contract/api/web-api';
import type { z } from 'zod';
import type { Collection } from '../../db/schema.ts';
import { notFound, validation } from '../../lib/errors.ts';
import { errorsFromIssues } from '../../lib/validation-messages.ts';
import type { Actor } from '../access/change-access.service.ts';
import { requireAsset, updateSqlAsset } from './assets.service.ts';
import { beginHistory, parseDefinition, parseNote, type VersionNote } from './history.service.ts';
import { findLatestVersion, findVersion, listVersions } from './versions.repository.ts';
import { updateWebApiAsset } from './web-api-assets.service.ts';

// The history of an asset as its Editors read it, and Restore: an old definition saved again through the same
// update (and so the same checks, transaction, cache version bump and audit) as any save, which keeps it as a new
// version. The asset keeps its id and uid, so tokens, links and downloads naming it keep working.

const VERSION = 'Version';

const words: Record<VersionNote['kind'], string> = {
  created: 'Created',
  began: 'As it was when its history began',
  changed: 'Changed',
  restored: 'Restored',
};

/** Each field as the asset editor names it. */
const labels: Record<AssetDefinitionField, string> = {
  name: 'name',
  description: 'description',
  connection: 'connection',
  sql: 'SQL',
  request: 'request',
  credential: 'credential',
  parameters: 'parameters',
  transformations: 'transformations',
  clientTools: 'client tools',
  limits: 'limits',
  cache: 'cache',
  mcpAvailable: 'available to AI agents',
};

function describe(note: VersionNote): string {
  const fields = note.changed.map((field) => labels[field] ?? field).join(', ');
  if (note.kind === 'restored') return `Restored version ${note.restoredFrom ?? '?'}${fields ? `: ${fields}` : ''}`;
  if (note.kind === 'changed') return `Changed ${fields}`;
  return words[note.kind];
}

interface VersionRow {
  version: number;
  summary: string;
  saved_by_user_id: number | null;
  saved_by_name: string | null;
  saved_at: string;
}

function presentVersion(row: VersionRow): AssetVersionSummary {
  const note = parseNote(row.summary);
  return {
    version: row.version,
    savedAt: new Date(row.saved_at),
    savedBy: row.saved_by_name === null ? null : { id: row.saved_by_user_id, name: row.saved_by_name },
    changed: note.changed,
    summary: describe(note),
  };
}

/** The asset, with its version 1 written first when its history has not begun yet. */
async function assetWithHistory(actor: Pick<Actor, 'db'>, uid: string) {
  const source = await requireAsset(actor.db, uid);
  if (!(await findLatestVersion(actor.db, source.id))) {
    await actor.db.transaction().execute((trx) => beginHistory(trx, source.id));
  }
  return source;
}

export async function versionsOf(actor: Pick<Actor, 'db'>, uid: string, query: { page: number; pageSize: number }) {
  const source = await assetWithHistory(actor, uid);
  const { rows, total } = await listVersions(actor.db, source.id, query.pageSize, (query.page - 1) * query.pageSize);
  return { items: rows.map(presentVersion), totalCount: total, page: query.page, pageSize: query.pageSize };
}

export async function versionOf(actor: Pick<Actor, 'db'>, uid: string, version: number): Promise<AssetVersion> {
  const source = await assetWithHistory(actor, uid);
  const row = await findVersion(actor.db, source.id, version);
  if (!row) throw notFound(VERSION, version);
  return { ...presentVersion(row), definition: parseDefinition(row.definition) };
}

/** The update body that saves `definition` again; a definition the update's schema no longer takes is a 400. */
function updateBody<S extends z.ZodType>(schema: S, value: Record<string, unknown>): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validation(errorsFromIssues(parsed.error.issues));
  return parsed.data;
}

function commonFields(uid: string, d: AssetDefinition) {
  return {
    uid,
    // A version without a connection names none: the update's own check answers that it does not exist.
    connectionId: d.connection?.id ?? 0,
    name: d.name,
    description: d.description,
    cacheTtlSeconds: d.cacheTtlSeconds,
    rowCap: d.rowCap,
    timeoutMs: d.timeoutMs,
    maxExportRows: d.maxExportRows,
    mcpAvailable: d.mcpAvailable,
    parameters: d.parameters,
    transformations: d.transformations,
    clientTools: d.clientTools.map((c) => c.tool),
  };
}

export async function restoreVersion(
  actor: Actor,
  collection: Collection,
  role: DataRole | null,
  uid: string,
  version: number,
) {
  const source = await assetWithHistory(actor, uid);
  const row = await findVersion(actor.db, source.id, version);
  if (!row) throw notFound(VERSION, version);
  const definition = parseDefinition(row.definition);
  const options = { restoredFrom: version, clientToolSettings: definition.clientTools };
  const fields = commonFields(source.uid, definition);
  const asset =
    source.kind === 'webapi'
      ? await updateWebApiAsset(
          actor,
          collection,
          role,
          updateBody(updateWebApiDataSource, {
            ...fields,
            request: definition.request ?? {},
            credentialId: definition.credential?.id ?? null,
          }),
          options,
        )
      : await updateSqlAsset(
          actor,
          collection,
          role,
          updateBody(updateSqlDataSource, { ...fields, sql: definition.sql }),
          options,
        );
  const latest = await findLatestVersion(actor.db, source.id);
  return { restoredFrom: version, version: latest?.version ?? version, asset };
}
