import type { Database } from '../../db/database.ts';
import type { Collection } from '../../db/schema.ts';
import type { AuthUser } from '../../lib/auth-user.ts';
import { ownerOf } from './caller.ts';
import { findCollectionOfOwnedJob } from './repository.ts';

// The collection of the caller's own download job, for route declarations (access/route-access.ts), which then
// authorize the caller on it as a call of its data: a job of another owner finds nothing, exactly as an unknown id.

export const findCollectionOfOwnDownload = (
  db: Database,
  id: string,
  user: AuthUser,
): Promise<Collection | undefined> => findCollectionOfOwnedJob(db, id, ownerOf(user));
