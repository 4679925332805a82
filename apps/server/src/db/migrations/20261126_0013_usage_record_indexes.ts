import type { Kysely } from 'kysely';

// Frozen. The usage reports read the rollups (0012), and an asset's recent calls read (data_source_id, at): nothing
// reads usage_records by time alone or by user any more, while every recorded call paid for both indexes
// (docs/decisions.md 120).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('usage_records_at_index').execute();
  await db.schema.dropIndex('usage_records_user_index').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('usage_records_at_index').on('usage_records').column('at').execute();
  await db.schema.createIndex('usage_records_user_index').on('usage_records').columns(['user_id', 'at']).execute();
}
