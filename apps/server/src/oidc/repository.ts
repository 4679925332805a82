import type { Insertable } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DemoAccountsTable, OidcPayloadsTable } from '../db/schema.ts';

// The built-in provider's own tables: its demo accounts and the sessions, codes, grants and tokens oidc-provider
// keeps through its adapter (adapter.ts). Every value is bound.

export type PayloadLookup = 'id' | 'user_code' | 'uid';

export function findDemoAccount(db: Database, username: string) {
  return db.selectFrom('demo_accounts').selectAll().where('username', '=', username).executeTakeFirst();
}

export function listDemoAccounts(db: Database) {
  return db.selectFrom('demo_accounts').select(['username', 'description']).orderBy('username').execute();
}

export async function insertDemoAccount(db: Database, account: Insertable<DemoAccountsTable>): Promise<void> {
  await db.insertInto('demo_accounts').values(account).execute();
}

export async function upsertPayload(db: Database, row: Insertable<OidcPayloadsTable>): Promise<void> {
  await db
    .insertInto('oidc_payloads')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['kind', 'id']).doUpdateSet({
        payload: row.payload,
        grant_id: row.grant_id,
        user_code: row.user_code,
        uid: row.uid,
        expires_at: row.expires_at,
      }),
    )
    .execute();
}

export function findPayload(db: Database, kind: string, column: PayloadLookup, value: string) {
  return db
    .selectFrom('oidc_payloads')
    .select(['payload', 'expires_at', 'consumed_at'])
    .where('kind', '=', kind)
    .where(column, '=', value)
    .executeTakeFirst();
}

export async function consumePayload(db: Database, kind: string, id: string, at: number): Promise<void> {
  await db
    .updateTable('oidc_payloads')
    .set({ consumed_at: at })
    .where('kind', '=', kind)
    .where('id', '=', id)
    .execute();
}

export async function deletePayload(db: Database, kind: string, id: string): Promise<void> {
  await db.deleteFrom('oidc_payloads').where('kind', '=', kind).where('id', '=', id).execute();
}

export async function deleteGrantPayloads(db: Database, grantId: string): Promise<void> {
  await db.deleteFrom('oidc_payloads').where('grant_id', '=', grantId).execute();
}

/** Removes the payloads expired at `at` (seconds); answers how many went. */
export async function deleteExpiredPayloads(db: Database, at: number): Promise<number> {
  const result = await db.deleteFrom('oidc_payloads').where('expires_at', '<=', at).executeTakeFirst();
  return Number(result.numDeletedRows);
}
