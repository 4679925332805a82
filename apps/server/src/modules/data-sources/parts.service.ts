import type { ClientTool } from '@datalab/contract/api/data-sources';
import type { Database } from '../../db/database.ts';
import type { Collection, DataSource } from '../../db/schema.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import type { Actor } from '../access/change-access.service.ts';
import { requireAsset } from './assets.service.ts';
import { loadParts } from './definition.service.ts';
import { beginHistory, recordVersion } from './history.service.ts';
import {
  deleteClientToolRow,
  deleteParameterRow,
  deleteRuleRow,
  deleteRulesOf,
  deleteTransformationRow,
  deleteTransformations,
  insertRules,
  insertTransformation,
  replaceParameters,
  upsertClientTool,
} from './parts.repository.ts';
import { presentTransformations } from './presenter.ts';
import {
  bumpVersion,
  findParameterAssetId,
  findParameterRows,
  findRuleRows,
  findTransformationRows,
} from './repository.ts';
import { assertPlaceholdersDefined, checkParameters, checkRules, checkTransformations } from './validation.ts';

// Parameters, transformations with their rules, and client tool configurations of one asset. Each change runs
// in one transaction with the asset's version bump, so a cached result of the old definition is never served,
// and with the version of its history it leaves (none when it changed nothing).
// The parameters left by a change must still define every `:name` the SQL uses.

async function change<T>(
  actor: Actor,
  source: DataSource,
  action: string,
  work: (trx: Database, now: string) => Promise<T>,
) {
  return actor.db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    // First: the asset's row is locked until the end, so changes to one asset (its SQL, its parameters) queue up
    // and each checks what the one before it left.
    await bumpVersion(trx, source.id, now);
    await beginHistory(trx, source.id);
    const result = await work(trx, now);
    const version = await recordVersion(trx, actor.user, source.id, now);
    await actor.audit(
      { action, target: { type: 'data asset', id: source.id, name: source.name }, after: { version } },
      trx,
    );
    return result;
  });
}

const parametersOf = async (db: Database, id: number) => (await loadParts(db, id)).parameters;
const transformationsOf = async (db: Database, id: number) => presentTransformations(await loadParts(db, id));
const clientToolsOf = async (db: Database, id: number) => (await loadParts(db, id)).clientTools;

async function storedDefinitions(db: Database, id: number) {
  return (await findParameterRows(db, id)).map((row) => JSON.parse(row.definition) as Record<string, unknown>);
}

async function writeParameters(trx: Database, dataSourceId: number, all: readonly { name: string }[], now: string) {
  await replaceParameters(
    trx,
    dataSourceId,
    all.map((d) => ({ name: d.name, definition: d })),
    now,
  );
  await assertPlaceholdersDefined(trx, dataSourceId, 'parameters');
}

export async function addParameter(
  actor: Actor,
  collection: Collection,
  assetId: string,
  input: Record<string, unknown>,
) {
  const source = await requireAsset(actor.db, assetId);
  const existing = await storedDefinitions(actor.db, source.id);
  const owner = { collectionId: collection.id, dataSourceId: source.id };
  const all = await checkParameters(actor.db, [...existing, input], owner);
  await change(actor, source, 'dataAsset.addParameter', (trx, now) => writeParameters(trx, source.id, all, now));
  return parametersOf(actor.db, source.id);
}

export async function setParameters(
  actor: Actor,
  collection: Collection,
  assetId: string,
  list: Record<string, unknown>[],
) {
  const source = await requireAsset(actor.db, assetId);
  const all = await checkParameters(actor.db, list, { collectionId: collection.id, dataSourceId: source.id });
  await change(actor, source, 'dataAsset.setParameters', (trx, now) => writeParameters(trx, source.id, all, now));
  return parametersOf(actor.db, source.id);
}

export async function removeParameter(actor: Actor, parameterId: number) {
  const row = await findParameterAssetId(actor.db, parameterId);
  if (!row) throw notFound('Parameter', parameterId);
  const source = await requireAsset(actor.db, row.data_source_id);
  await change(actor, source, 'dataAsset.deleteParameter', async (trx) => {
    await deleteParameterRow(trx, parameterId);
    await assertPlaceholdersDefined(trx, source.id, 'parameters');
  });
  return { id: parameterId, deleted: true as const };
}

export async function listTransformations(db: Database, assetId: string) {
  return transformationsOf(db, (await requireAsset(db, assetId)).id);
}

export async function addTransformation(actor: Actor, assetId: string, input: { name: string; rules: unknown[] }) {
  const source = await requireAsset(actor.db, assetId);
  const [checked] = checkTransformations([input]);
  const position = (await findTransformationRows(actor.db, source.id)).length;
  await change(actor, source, 'dataAsset.addTransformation', (trx, now) =>
    insertTransformation(trx, source.id, position, checked?.name ?? '', checked?.rules ?? [], now),
  );
  return transformationsOf(actor.db, source.id);
}

export async function setTransformations(actor: Actor, assetId: string, list: { name: string; rules: unknown[] }[]) {
  const source = await requireAsset(actor.db, assetId);
  const checked = checkTransformations(list);
  await change(actor, source, 'dataAsset.setTransformations', async (trx, now) => {
    await deleteTransformations(trx, source.id);
    for (const [position, t] of checked.entries())
      await insertTransformation(trx, source.id, position, t.name, t.rules, now);
  });
  return transformationsOf(actor.db, source.id);
}

async function requireTransformation(db: Database, source: DataSource, tid: number) {
  const found = (await findTransformationRows(db, source.id)).find((t) => t.id === tid);
  if (!found) throw notFound('Transformation', tid);
  return found;
}

export async function removeTransformation(actor: Actor, assetId: string, tid: number) {
  const source = await requireAsset(actor.db, assetId);
  await requireTransformation(actor.db, source, tid);
  await change(actor, source, 'dataAsset.deleteTransformation', (trx) => deleteTransformationRow(trx, source.id, tid));
  return transformationsOf(actor.db, source.id);
}

export async function addRule(actor: Actor, assetId: string, tid: number, rule: unknown) {
  const source = await requireAsset(actor.db, assetId);
  await requireTransformation(actor.db, source, tid);
  const [checked] = checkRules([rule], 'rules');
  const position = (await findRuleRows(actor.db, source.id)).filter((r) => r.transformation_id === tid).length;
  await change(actor, source, 'dataAsset.addRule', (trx, now) => insertRules(trx, tid, position, [checked], now));
  return transformationsOf(actor.db, source.id);
}

export async function setRules(actor: Actor, assetId: string, tid: number, rules: unknown[]) {
  const source = await requireAsset(actor.db, assetId);
  await requireTransformation(actor.db, source, tid);
  const checked = checkRules(rules, 'rules');
  await change(actor, source, 'dataAsset.setRules', async (trx, now) => {
    await deleteRulesOf(trx, tid);
    await insertRules(trx, tid, 0, checked, now);
  });
  return transformationsOf(actor.db, source.id);
}

export async function removeRule(actor: Actor, assetId: string, tid: number, rid: number) {
  const source = await requireAsset(actor.db, assetId);
  await requireTransformation(actor.db, source, tid);
  await change(actor, source, 'dataAsset.deleteRule', async (trx) => {
    if (!(await deleteRuleRow(trx, tid, rid))) throw notFound('Transformation rule', rid);
  });
  return transformationsOf(actor.db, source.id);
}

export async function setClientTool(
  actor: Actor,
  assetId: string,
  input: { tool: ClientTool; settings: Record<string, unknown> },
  mode: 'create' | 'upsert',
) {
  const source = await requireAsset(actor.db, assetId);
  if (mode === 'create') {
    const existing = await clientToolsOf(actor.db, source.id);
    if (existing.some((c) => c.tool === input.tool)) throw conflict('Client tool configuration', input.tool);
  }
  await change(actor, source, 'dataAsset.setClientTool', (trx, now) =>
    upsertClientTool(trx, source.id, input.tool, input.settings, now),
  );
  return clientToolsOf(actor.db, source.id);
}

export async function removeClientTool(actor: Actor, assetId: string, cid: number) {
  const source = await requireAsset(actor.db, assetId);
  await change(actor, source, 'dataAsset.deleteClientTool', async (trx) => {
    if (!(await deleteClientToolRow(trx, source.id, cid))) throw notFound('Client tool configuration', cid);
  });
  return clientToolsOf(actor.db, source.id);
}
