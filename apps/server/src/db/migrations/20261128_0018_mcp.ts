import type { Kysely } from 'kysely';

// Frozen. The MCP endpoint's switches: an asset is a tool for AI agents only once its editor turns
// `mcp_available` on (off by default), and a collection's Owner or an administrator can keep all of a collection's
// assets away from agents with `mcp_enabled` (on by default: each asset's own switch still decides). Flags are
// integers (0/1) in both stores.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('data_sources')
    .addColumn('mcp_available', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('collections')
    .addColumn('mcp_enabled', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('collections').dropColumn('mcp_enabled').execute();
  await db.schema.alterTable('data_sources').dropColumn('mcp_available').execute();
}
