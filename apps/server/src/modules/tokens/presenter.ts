import type { DataRole } from '@datalab/contract/api/data-roles';
import type { Token, TokenStatus } from '@datalab/contract/api/tokens';
import type { RoleName } from '../../db/schema.ts';
import type { TokenListRow } from './repository.ts';
import { hintOf } from './secret.ts';

// Tokens as replies show them: never the secret nor its hash; the status computed at the time of the reply.

export interface RoleRow {
  token_id: number;
  collection_id: number;
  role: RoleName;
  uid: string;
  name: string;
}

export function statusOf(row: Pick<TokenListRow, 'revoked_at' | 'expires_at'>, now = Date.now()): TokenStatus {
  if (row.revoked_at !== null) return 'Revoked';
  if (row.expires_at !== null && Date.parse(row.expires_at) <= now) return 'Expired';
  return 'Active';
}

const person = (id: number | null, name: string | null, username: string | null) =>
  id === null || name === null ? null : { id, name, username };

const date = (value: string | null) => (value === null ? null : new Date(value));

export function presentToken(row: TokenListRow, roles: readonly RoleRow[], now = Date.now()): Token {
  const collection =
    row.collection_uid === null || row.collection_name === null
      ? null
      : { uid: row.collection_uid, name: row.collection_name };
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    hint: hintOf(row.kind, row.lookup_id),
    owner: person(row.owner_user_id, row.owner_name, row.owner_username),
    collection,
    roles:
      row.kind === 'collection'
        ? collection
          ? [{ collection, role: 'Reader' as DataRole }]
          : []
        : roles
            .filter((r) => r.token_id === row.id)
            .map((r) => ({ collection: { uid: r.uid, name: r.name }, role: r.role })),
    createdBy: person(row.created_by, row.creator_name, row.creator_username),
    createdAt: new Date(row.created_at),
    expiresAt: date(row.expires_at),
    revokedAt: date(row.revoked_at),
    revokedBy: person(row.revoked_by, row.revoker_name, row.revoker_username),
    revokedReason: row.revoked_at === null ? null : row.revoked_reason,
    lastUsedAt: date(row.last_used_at),
    lastUsedAddress: row.last_used_address,
    status: statusOf(row, now),
  };
}
