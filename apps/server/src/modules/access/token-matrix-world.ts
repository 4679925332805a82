import { randomBytes } from 'node:crypto';
import type { Database } from '../../db/database.ts';

// The token part of the authorization matrix's world, written straight to the store (the matrix tests who may
// reach a route, not the secrets): a collection token of the target collection and a personal access token of its
// Owner, and makers of fresh collection tokens for the rows that revoke.

export interface TokenFixture {
  collectionTokenId: number;
  personalTokenId: number;
}

export interface TokenHelpers {
  freshCollectionToken: () => Promise<number>;
}

export async function buildTokenWorld(
  db: Database,
  collectionId: number,
  ownerId: number,
  unique: () => string,
): Promise<{ fixture: TokenFixture; helpers: TokenHelpers }> {
  const insert = async (kind: 'personal' | 'collection') => {
    const name = `Matrix token ${unique()}`;
    const row = await db
      .insertInto('tokens')
      .values({
        kind,
        name,
        name_key: name.toLowerCase(),
        owner_user_id: kind === 'personal' ? ownerId : null,
        collection_id: kind === 'collection' ? collectionId : null,
        created_by: ownerId,
        lookup_id: randomBytes(9).toString('base64url'),
        secret_hash: randomBytes(32).toString('hex'),
        created_at: new Date().toISOString(),
        expires_at: new Date(Date.now() + 86_400_000).toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  };
  const personalTokenId = await insert('personal');
  await db
    .insertInto('token_data_roles')
    .values({
      token_id: personalTokenId,
      collection_id: collectionId,
      role: 'Reader',
      created_at: new Date().toISOString(),
    })
    .execute();
  return {
    fixture: { collectionTokenId: await insert('collection'), personalTokenId },
    helpers: { freshCollectionToken: () => insert('collection') },
  };
}
