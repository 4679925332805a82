import type {
  DefinitionAsset,
  DefinitionDocument,
  DefinitionSqlConnection,
  DefinitionWebApiConnection,
} from '@datalab/contract/api/definition-document';
import type { DefinitionChange } from '@datalab/contract/api/definitions';
import { createWebApiCredential } from '@datalab/contract/api/web-api';
import { httpRequestSchema } from '@datalab/engine';
import type { Database } from '../../db/database.ts';
import { insertConnectionRow, updateConnectionRow } from '../../db/connection-rows.ts';
import type { Collection, Connection } from '../../db/schema.ts';
import { validation } from '../../lib/errors.ts';
import type { Actor } from '../access/change-access.service.ts';
import { keepingOwners, refusingSelfRaise } from '../access/invariants.service.ts';
import { newUid, updateCollectionRow } from '../collections/service.ts';
import { overrideOf } from '../connections/privileged-account.service.ts';
import type { SqlRuntime } from '../connections/runtime.service.ts';
import { valuesOf as sqlValuesOf } from '../connections/service.ts';
import { deleteJobsOf } from '../dependents/leftovers.service.ts';
import { setRole } from '../data-roles/service.ts';
import {
  deleteAsset,
  deleteTransformations,
  insertAsset,
  insertTransformation,
  replaceClientTools,
  replaceParameters,
  updateAsset,
  upsertClientTool,
} from '../data-sources/asset-writes.service.ts';
import {
  checkCredential,
  deleteCredentialRow,
  deleteWebApiConnectionRow,
  insertCredential,
  updateCredentialRow,
} from '../web-api/credentials.service.ts';
import { valuesOf as webValuesOf } from '../web-api/service.ts';
import { heldSecrets, lower, secretValue, type PlanInput } from './plan.service.ts';
import type { CollectionState } from './repository.ts';
import { deleteSqlConnectionRow, findGroupsByName, findUsersByUsername } from './repository.ts';

// Apply: the plan's changes written in the caller's one transaction (definitions/service.ts opens it), in the
// plan's order. Each thing is written whole, as its own save call would write it (connections' secrets sealed, an
// administrator's override of a privileged account kept only for the same account, assets' versions bumped,
// parameters' data sources stored by uid); what fails stops the transaction, so nothing is half-applied.

export interface Written {
  /** Connections whose pools must be rebuilt (changed or deleted), once the transaction commits. */
  evict: number[];
  /** Assets deleted, whose download files and cached results go after the commit. */
  deletedAssets: number[];
  jobs: Awaited<ReturnType<typeof deleteJobsOf>>;
}

interface Context {
  trx: Database;
  actor: Actor;
  runtime: SqlRuntime;
  input: PlanInput;
  now: string;
  held: Map<string, string>;
  written: Written;
  connectionIds: Map<string, number>;
  credentialIds: Map<string, number>;
  assetUids: Map<string, string>;
}

const openOrNull = (box: SqlRuntime['box'], sealed: string | null) => (sealed ? box.open(sealed) : null);

function secretOf(ctx: Context, ref: string | undefined): string | null {
  if (!ref) return null;
  const value = secretValue(ctx.input, ctx.held, ref);
  if (value === undefined) throw validation({ secrets: [`No value for the secret ${ref}`] });
  return value;
}

async function writeSqlConnection(ctx: Context, doc: DefinitionSqlConnection, existing: Connection | undefined) {
  const plain = secretOf(ctx, doc.password?.secret);
  const values = sqlValuesOf(
    { ...doc, kind: doc.driver, password: undefined, allowPrivilegedAccount: undefined },
    ctx.runtime,
  );
  const network = doc.driver !== 'sqlite';
  const stored = existing ? openOrNull(ctx.runtime.box, existing.secret) : null;
  if (!existing || stored !== (network ? plain : null))
    values.secret = network && plain ? ctx.runtime.box.seal(plain) : null;
  const override = await overrideOf(ctx.actor, existing, undefined, values);
  const columns = {
    ...values,
    allow_privileged_account: override.after ? 1 : 0,
    secret_ref: network && doc.password ? doc.password.secret : null,
  };
  if (existing) {
    await updateConnectionRow(ctx.trx, 'sql', existing.id, columns, ctx.now);
    ctx.written.evict.push(existing.id);
  } else {
    ctx.connectionIds.set(
      lower(doc.name),
      await insertConnectionRow(ctx.trx, 'sql', ctx.input.state.collection.id, columns, ctx.now),
    );
  }
}

async function writeWebApiConnection(ctx: Context, doc: DefinitionWebApiConnection, existing: Connection | undefined) {
  const values = { ...webValuesOf(doc, doc.allowedHosts) };
  let id: number;
  if (existing) {
    id = existing.id;
    await updateConnectionRow(ctx.trx, 'webapi', id, values, ctx.now);
    ctx.written.evict.push(id);
  } else {
    id = await insertConnectionRow(ctx.trx, 'webapi', ctx.input.state.collection.id, values, ctx.now);
    ctx.connectionIds.set(lower(doc.name), id);
  }
  const stored = ctx.input.state.credentials.filter((k) => k.connection_id === id);
  for (const [index, k] of doc.credentials.entries()) {
    const plain = secretOf(ctx, k.secret?.secret);
    const parsed = createWebApiCredential.parse({ ...k, connectionId: id, secret: undefined });
    try {
      checkCredential(parsed, plain ?? '');
    } catch (error) {
      const errors = (error as { errors?: Record<string, string[]> }).errors ?? {};
      const at = `webApiConnections.${ctx.input.document.webApiConnections.indexOf(doc)}.credentials.${index}`;
      throw validation(Object.fromEntries(Object.entries(errors).map(([key, list]) => [`${at}.${key}`, list])));
    }
    const was = stored.find((row) => lower(row.name) === lower(k.name));
    const sameSecret = was && openOrNull(ctx.runtime.box, was.secret) === plain;
    const row = {
      name: k.name,
      name_key: lower(k.name),
      kind: k.kind,
      settings: JSON.stringify(parsed.settings),
      ...(sameSecret ? {} : { secret: plain ? ctx.runtime.box.seal(plain) : null }),
      secret_ref: k.secret ? k.secret.secret : null,
      updated_at: ctx.now,
    };
    if (was) await updateCredentialRow(ctx.trx, was.id, row);
    else {
      const created = await insertCredential(ctx.trx, { ...row, connection_id: id, created_at: ctx.now });
      ctx.credentialIds.set(`${id}/${lower(k.name)}`, created);
    }
  }
  return { id, gone: stored.filter((row) => !doc.credentials.some((k) => lower(k.name) === lower(row.name))) };
}

async function writeAsset(ctx: Context, doc: DefinitionAsset, existing: CollectionState['assets'][number] | undefined) {
  const connectionId = ctx.connectionIds.get(lower(doc.connection));
  if (connectionId === undefined) throw validation({ dataAssets: [`No connection ${doc.connection}`] });
  const credentialId =
    doc.kind === 'webapi' && doc.credential ? ctx.credentialIds.get(`${connectionId}/${lower(doc.credential)}`) : null;
  const columns = {
    name: doc.name,
    description: doc.description,
    connection_id: connectionId,
    sql_text: doc.kind === 'sql' ? doc.sql : '',
    // As the Web API asset calls store it: the engine's form of the request, never with a credential in it.
    request_definition:
      doc.kind === 'webapi' ? JSON.stringify(httpRequestSchema.parse({ ...doc.request, credential: undefined })) : null,
    credential_id: credentialId ?? null,
    cache_ttl_seconds: doc.cacheTtlSeconds,
    row_cap: doc.rowCap,
    timeout_ms: doc.timeoutMs,
    max_export_rows: doc.maxExportRows,
    mcp_available: doc.mcpAvailable ? 1 : 0,
    updated_at: ctx.now,
  };
  let id: number;
  if (existing) {
    id = existing.id;
    await updateAsset(ctx.trx, id, columns);
  } else {
    const uid = ctx.assetUids.get(lower(doc.name)) ?? newUid();
    id = await insertAsset(ctx.trx, {
      ...columns,
      uid,
      kind: doc.kind,
      collection_id: ctx.input.state.collection.id,
      created_at: ctx.now,
    });
  }
  const parameters = doc.parameters.map((p) => {
    if (p.allowedValues?.kind !== 'dataSource') return { name: p.name, definition: p };
    const { dataAsset, ...rest } = p.allowedValues;
    const allowedValues = { ...rest, dataSourceId: ctx.assetUids.get(lower(dataAsset)) ?? dataAsset };
    return { name: p.name, definition: { ...p, allowedValues } };
  });
  await replaceParameters(ctx.trx, id, parameters, ctx.now);
  await deleteTransformations(ctx.trx, id);
  for (const [position, t] of doc.transformations.entries())
    await insertTransformation(ctx.trx, id, position, t.name, t.rules, ctx.now);
  await replaceClientTools(
    ctx.trx,
    id,
    doc.clientTools.map((t) => t.tool),
    ctx.now,
  );
  for (const t of doc.clientTools) await upsertClientTool(ctx.trx, id, t.tool, t.settings, ctx.now);
}

async function writeRoles(ctx: Context, changes: readonly DefinitionChange[], document: DefinitionDocument) {
  const roleChanges = changes.filter((c) => c.kind === 'dataRole');
  if (roleChanges.length === 0) return;
  const groupNames = roleChanges.filter((c) => c.name.startsWith('group:')).map((c) => c.name.slice(6));
  const usernames = roleChanges.filter((c) => c.name.startsWith('user:')).map((c) => c.name.slice(5));
  const [groups, users] = await Promise.all([
    findGroupsByName(ctx.trx, groupNames),
    findUsersByUsername(ctx.trx, usernames),
  ]);
  const collectionId = ctx.input.state.collection.id;
  await keepingOwners(ctx.trx, [collectionId], () =>
    refusingSelfRaise(ctx.trx, ctx.actor.user.id, async () => {
      for (const change of roleChanges) {
        if (change.name.startsWith('group:')) {
          const name = change.name.slice(6);
          const group = groups.find((g) => g.name_key === lower(name));
          const wanted = document.dataRoles.groups.find((g) => lower(g.group) === lower(name));
          if (group)
            await setRole(
              ctx.trx,
              collectionId,
              { kind: 'group', id: group.id },
              change.action === 'delete' ? null : (wanted?.role ?? null),
              ctx.now,
            );
        } else {
          const name = change.name.slice(5);
          const user = users.find((u) => u.username === name);
          const wanted = document.dataRoles.users.find((u) => u.username === name);
          if (user)
            await setRole(
              ctx.trx,
              collectionId,
              { kind: 'user', id: user.id },
              change.action === 'delete' ? null : (wanted?.role ?? null),
              ctx.now,
            );
        }
      }
    }),
  );
}

/** Writes `changes` (a plan of `input` against the state read in `trx`) in `trx`. */
export async function writeChanges(
  trx: Database,
  actor: Actor,
  runtime: SqlRuntime,
  input: PlanInput,
  changes: readonly DefinitionChange[],
): Promise<Written> {
  const { document, state } = input;
  const ctx: Context = {
    trx,
    actor,
    runtime,
    input,
    now: new Date().toISOString(),
    held: heldSecrets(state),
    written: { evict: [], deletedAssets: [], jobs: [] },
    connectionIds: new Map(state.connections.map((c) => [lower(c.name), c.id])),
    credentialIds: new Map(state.credentials.map((k) => [`${k.connection_id}/${lower(k.name)}`, k.id])),
    assetUids: new Map(state.assets.map((a) => [lower(a.name), a.uid])),
  };
  for (const asset of document.dataAssets)
    if (!ctx.assetUids.has(lower(asset.name))) ctx.assetUids.set(lower(asset.name), newUid());
  const wants = (
    kind: DefinitionChange['kind'],
    name: string,
    actions: DefinitionChange['action'][] = ['create', 'update'],
  ) => changes.some((c) => c.kind === kind && lower(c.name) === lower(name) && actions.includes(c.action));
  const rowOf = (kind: 'sql' | 'webapi', name: string) =>
    state.connections.find((c) => c.kind === kind && lower(c.name) === lower(name));

  if (changes.some((c) => c.kind === 'collection')) {
    await updateCollectionRow(trx, state.collection.id, { ...document.collection, at: ctx.now });
  }
  for (const c of document.sqlConnections)
    if (wants('sqlConnection', c.name)) await writeSqlConnection(ctx, c, rowOf('sql', c.name));
  const goneCredentials: number[] = [];
  for (const c of document.webApiConnections)
    if (wants('webApiConnection', c.name))
      goneCredentials.push(...(await writeWebApiConnection(ctx, c, rowOf('webapi', c.name))).gone.map((k) => k.id));
  for (const a of document.dataAssets)
    if (wants('dataAsset', a.name))
      await writeAsset(
        ctx,
        a,
        state.assets.find((row) => lower(row.name) === lower(a.name)),
      );
  await writeRoles(ctx, changes, document);
  // What is left out goes only with prune (the plan lists deletions only then): assets, then connections.
  const deletedAssets = state.assets.filter((a) => wants('dataAsset', a.name, ['delete']));
  for (const asset of deletedAssets) await deleteAsset(trx, asset.id);
  if (deletedAssets.length > 0) {
    ctx.written.deletedAssets = deletedAssets.map((a) => a.id);
    ctx.written.jobs = await deleteJobsOf(trx, { dataSourceIds: ctx.written.deletedAssets });
  }
  for (const id of goneCredentials) await deleteCredentialRow(trx, id);
  for (const c of state.connections) {
    if (!wants(c.kind === 'sql' ? 'sqlConnection' : 'webApiConnection', c.name, ['delete'])) continue;
    if (c.kind === 'sql') await deleteSqlConnectionRow(trx, c.id);
    else await deleteWebApiConnectionRow(trx, c.id);
    ctx.written.evict.push(c.id);
  }
  return ctx.written;
}

export type { Collection };
