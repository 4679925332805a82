import type { Database } from '../../db/database.ts';
import type { ClientTool } from '../../db/schema.ts';
import { findParameterRows } from './repository.ts';

// Writes to what hangs off an asset: parameters, transformations and their rules, client tool configurations.

/** Replaces the parameters with `definitions`, in order; ids of kept names stay. */
export async function replaceParameters(
  db: Database,
  dataSourceId: number,
  definitions: readonly { name: string; definition: unknown }[],
  now: string,
) {
  const existing = await findParameterRows(db, dataSourceId);
  const byName = new Map(existing.map((row) => [row.name, row]));
  const keep = new Set(definitions.map((d) => d.name));
  const gone = existing.filter((row) => !keep.has(row.name)).map((row) => row.id);
  if (gone.length > 0) await db.deleteFrom('parameters').where('id', 'in', gone).execute();
  for (const [position, d] of definitions.entries()) {
    const row = byName.get(d.name);
    const definition = JSON.stringify(d.definition);
    if (row) {
      await db
        .updateTable('parameters')
        .set({ position, definition, updated_at: now })
        .where('id', '=', row.id)
        .execute();
    } else {
      await db
        .insertInto('parameters')
        .values({ data_source_id: dataSourceId, position, name: d.name, definition, created_at: now, updated_at: now })
        .execute();
    }
  }
}

export async function deleteParameterRow(db: Database, id: number) {
  const row = await db
    .selectFrom('parameters')
    .select(['id', 'data_source_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (row) await db.deleteFrom('parameters').where('id', '=', id).execute();
  return row;
}

export async function insertTransformation(
  db: Database,
  dataSourceId: number,
  position: number,
  name: string,
  rules: readonly unknown[],
  now: string,
) {
  const { id } = await db
    .insertInto('transformations')
    .values({ data_source_id: dataSourceId, position, name, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertRules(db, id, 0, rules, now);
  return id;
}

export async function insertRules(
  db: Database,
  transformationId: number,
  from: number,
  rules: readonly unknown[],
  now: string,
) {
  if (rules.length === 0) return;
  await db
    .insertInto('transformation_rules')
    .values(
      rules.map((rule, index) => ({
        transformation_id: transformationId,
        position: from + index,
        rule: JSON.stringify(rule),
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

export async function deleteTransformations(db: Database, dataSourceId: number) {
  await db.deleteFrom('transformations').where('data_source_id', '=', dataSourceId).execute();
}

export async function deleteTransformationRow(db: Database, dataSourceId: number, id: number) {
  const result = await db
    .deleteFrom('transformations')
    .where('id', '=', id)
    .where('data_source_id', '=', dataSourceId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteRulesOf(db: Database, transformationId: number) {
  await db.deleteFrom('transformation_rules').where('transformation_id', '=', transformationId).execute();
}

export async function deleteRuleRow(db: Database, transformationId: number, id: number) {
  const result = await db
    .deleteFrom('transformation_rules')
    .where('id', '=', id)
    .where('transformation_id', '=', transformationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function upsertClientTool(
  db: Database,
  dataSourceId: number,
  tool: ClientTool,
  settings: unknown,
  now: string,
): Promise<'created' | 'updated'> {
  const existing = await db
    .selectFrom('client_tool_configurations')
    .select('id')
    .where('data_source_id', '=', dataSourceId)
    .where('tool', '=', tool)
    .executeTakeFirst();
  const text = JSON.stringify(settings);
  if (existing) {
    await db
      .updateTable('client_tool_configurations')
      .set({ settings: text, updated_at: now })
      .where('id', '=', existing.id)
      .execute();
    return 'updated';
  }
  await db
    .insertInto('client_tool_configurations')
    .values({ data_source_id: dataSourceId, tool, settings: text, created_at: now, updated_at: now })
    .execute();
  return 'created';
}

/** Makes `tools` exactly the configured ones: new ones start with empty settings, kept ones keep theirs. */
export async function replaceClientTools(
  db: Database,
  dataSourceId: number,
  tools: readonly ClientTool[],
  now: string,
) {
  const wanted = [...new Set(tools)];
  const existing = await db
    .selectFrom('client_tool_configurations')
    .select(['id', 'tool'])
    .where('data_source_id', '=', dataSourceId)
    .execute();
  const gone = existing.filter((row) => !wanted.includes(row.tool)).map((row) => row.id);
  if (gone.length > 0) await db.deleteFrom('client_tool_configurations').where('id', 'in', gone).execute();
  const added = wanted.filter((tool) => !existing.some((row) => row.tool === tool));
  if (added.length === 0) return;
  await db
    .insertInto('client_tool_configurations')
    .values(
      added.map((tool) => ({ data_source_id: dataSourceId, tool, settings: '{}', created_at: now, updated_at: now })),
    )
    .execute();
}

export async function deleteClientToolRow(db: Database, dataSourceId: number, id: number) {
  const result = await db
    .deleteFrom('client_tool_configurations')
    .where('id', '=', id)
    .where('data_source_id', '=', dataSourceId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
