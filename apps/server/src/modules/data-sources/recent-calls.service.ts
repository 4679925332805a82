import type { DataRole } from '@datalab/contract/api/data-roles';
import type { RecentCall } from '@datalab/contract/api/data-sources';
import type { Actor } from '../access/change-access.service.ts';
import { can } from '../access/policy.ts';
import { requireAsset } from './assets.service.ts';
import { findRecentCalls, type RecentCallRow } from './recent-calls.repository.ts';

// An asset's recent calls (GET /api/DataSource/{id}/RecentCalls, docs/decisions.md): the route lets whoever sees the
// asset in; what they see depends on who they are. A Reader sees their own calls; the collection's Editors and
// Owners, who look after the asset, see everyone's with the caller's name; so do administrators, who see who uses
// what (product §10). Records are written in batches (plugins/usage.ts): a call shows up within USAGE_FLUSH_MS.

export function presentRecentCall(row: RecentCallRow): RecentCall {
  return {
    id: row.id,
    at: new Date(row.at),
    caller: row.user_id === null ? null : { id: row.user_id, name: row.user_name ?? `User ${row.user_id}` },
    viaToken: row.token_id !== null,
    status: row.status,
    rows: Number(row.row_count),
    bytes: Number(row.byte_count),
    durationMs: row.duration_ms,
    cacheHit: row.cache_hit === 1,
    format: row.format,
  };
}

/** Whether the caller sees every caller's calls of an asset of this collection, or only their own. */
export function seesEveryonesCalls(user: Actor['user'], role: DataRole | null): boolean {
  return user.canManageUsers || can(user, role, 'editAssets');
}

export async function recentCalls(
  actor: Pick<Actor, 'db' | 'user'>,
  role: DataRole | null,
  idOrUid: string,
  take: number,
): Promise<{ scope: 'mine' | 'everyone'; items: RecentCall[] }> {
  const source = await requireAsset(actor.db, idOrUid);
  const everyone = seesEveryonesCalls(actor.user, role);
  const rows = await findRecentCalls(actor.db, source.id, { take, userId: everyone ? undefined : actor.user.id });
  return { scope: everyone ? 'everyone' : 'mine', items: rows.map(presentRecentCall) };
}
