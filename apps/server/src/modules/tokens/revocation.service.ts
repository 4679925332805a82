import type { Database } from '../../db/database.ts';
import { markCollectionTokensRevoked } from './repository.ts';

// Revocations other modules cause: deleting a collection revokes its tokens inside the deleting transaction (the
// collections service calls this through changeAccess, which also bumps the access version).

/** Revokes every live token of the collection; answers their ids, for the deletion's audit record. */
export function revokeCollectionTokens(trx: Database, collectionId: number, byUserId: number): Promise<number[]> {
  return markCollectionTokensRevoked(trx, collectionId, byUserId, new Date().toISOString());
}
