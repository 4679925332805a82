import { sql, type Kysely } from 'kysely';

// Frozen. Why a token was revoked (docs/decisions.md, the leak report): 'revoked' through the Revoke call (revoked_by
// names who), 'collectionDeleted' with its collection, 'leaked' when its secret was reported (revoked_by null: nobody
// did it). Tokens revoked before this column existed keep null: which of the first two it was is not known for sure.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('tokens')
    .addColumn('revoked_reason', 'text', (col) =>
      col.check(sql`revoked_reason in ('revoked', 'collectionDeleted', 'leaked')`),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('tokens').dropColumn('revoked_reason').execute();
}
