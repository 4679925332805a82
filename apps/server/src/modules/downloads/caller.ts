import { roleRank } from '@datalab/contract/api/data-roles';
import type { Database } from '../../db/database.ts';
import type { AuthUser } from '../../lib/auth-user.ts';
import type { AccessModelCache } from '../access/access-model.ts';
import { readAccessVersion } from '../access/access-model.ts';
import { findTokenStanding, findUserStanding, tokenRoles, type JobOwner, type JobRow } from './repository.ts';

// Who a job acts for, as the request that started it did, rebuilt from the store when the job runs: the person
// (still active), or the Data Lab token (not revoked, not expired, its owner active). Null: nobody may run it now.
// The authorization itself then goes through the calling layer's own callableAsset (policy.ts), as a call would.

/** A collection token acts for no person: its jobs belong to the token and only it sees them. */
export function ownerOf(user: AuthUser): JobOwner {
  return user.token?.kind === 'collection' ? { tokenId: user.token.id } : { userId: user.id };
}

function isUsable(token: { revoked_at: string | null; expires_at: string | null }): boolean {
  return token.revoked_at === null && (token.expires_at === null || Date.parse(token.expires_at) > Date.now());
}

async function personOf(db: Database, access: AccessModelCache, userId: number): Promise<AuthUser | null> {
  const user = await findUserStanding(db, userId);
  if (!user?.is_active) return null;
  return {
    id: user.id,
    name: user.name,
    username: user.username,
    email: user.email,
    canManageUsers: Boolean(user.can_manage_users),
    accessVersion: access.localVersion() ?? (await readAccessVersion(db)),
  };
}

export async function callerOfJob(db: Database, access: AccessModelCache, job: JobRow): Promise<AuthUser | null> {
  if (job.token_id === null) return job.owner_user_id === null ? null : personOf(db, access, job.owner_user_id);
  const token = await findTokenStanding(db, job.token_id);
  if (!token || !isUsable(token)) return null;
  if (token.kind === 'collection') {
    if (token.collection_id === null) return null;
    return {
      id: 0,
      name: '',
      username: null,
      email: null,
      canManageUsers: false,
      accessVersion: access.localVersion() ?? (await readAccessVersion(db)),
      token: {
        id: token.id,
        kind: 'collection',
        ranks: new Map([[token.collection_id, roleRank.Reader]]),
        collectionId: token.collection_id,
      },
    };
  }
  if (token.owner_user_id === null || !token.owner_active) return null;
  const owner = await personOf(db, access, token.owner_user_id);
  if (!owner) return null;
  const roles = await tokenRoles(db, token.id);
  const ranks = new Map(roles.map((r) => [r.collection_id, roleRank[r.role]]));
  // Token callers never hold a system permission (as at authentication).
  return { ...owner, canManageUsers: false, token: { id: token.id, kind: 'personal', ranks, collectionId: null } };
}
