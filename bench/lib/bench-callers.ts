import type { Config } from '../../apps/server/src/config.ts';
import { createDatabase } from '../../apps/server/src/db/database.ts';
import { generateSecret } from '../../apps/server/src/modules/tokens/secret.ts';

// Many callers for a bench: `count` users, each a Reader of one collection with a personal access token (Reader
// there too), written straight into a stopped server's store (there is no API to make users: they come from
// sign-ins). The server must be started again afterwards, so that nothing it cached misses them. Returns the
// tokens' secrets.

export async function addCallers(store: Config['database'], collectionUid: string, count: number): Promise<string[]> {
  const db = createDatabase(store);
  try {
    const collection = await db
      .selectFrom('collections')
      .select('id')
      .where('uid', '=', collectionUid)
      .executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    const expires = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
    const secrets: string[] = [];
    await db.transaction().execute(async (trx) => {
      for (let i = 1; i <= count; i += 1) {
        const user = await trx
          .insertInto('users')
          .values({
            issuer: 'urn:bench',
            subject: `bench-caller-${i}`,
            username: `caller${i}`,
            name: `Bench caller ${i}`,
            email: `caller${i}@bench.local`,
            can_manage_users: 0,
            is_active: 1,
            created_at: at,
            updated_at: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('collection_user_roles')
          .values({ collection_id: collection.id, user_id: user.id, role: 'Reader', created_at: at })
          .execute();
        const secret = generateSecret('personal');
        const token = await trx
          .insertInto('tokens')
          .values({
            kind: 'personal',
            name: 'Bench',
            name_key: 'bench',
            owner_user_id: user.id,
            collection_id: null,
            created_by: user.id,
            lookup_id: secret.lookupId,
            secret_hash: secret.hash,
            created_at: at,
            expires_at: expires,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('token_data_roles')
          .values({ token_id: token.id, collection_id: collection.id, role: 'Reader', created_at: at })
          .execute();
        secrets.push(secret.secret);
      }
    });
    return secrets;
  } finally {
    await db.destroy();
  }
}
