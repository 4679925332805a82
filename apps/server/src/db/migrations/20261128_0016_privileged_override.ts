import type { Kysely } from 'kysely';

// Frozen. A SQL connection whose database account may do more than read (a superuser, FILE, write grants) is refused
// unless an administrator allowed that account on the connection: allow_privileged_account (0/1). The flag is cleared
// when someone who is not an administrator changes the account (docs/operations.md, "Read-only database accounts").

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('connections')
    .addColumn('allow_privileged_account', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('connections').dropColumn('allow_privileged_account').execute();
}
