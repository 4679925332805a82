import type { Database } from '../../db/database.ts';
import type { CredentialKind } from '../../db/schema.ts';

// Queries a Web API data asset needs about its connection's credentials: names and kinds, never their secrets.

export interface CredentialSummary {
  id: number;
  name: string;
  kind: CredentialKind;
  connectionId: number;
}

export async function findCredentialSummary(db: Database, id: number): Promise<CredentialSummary | undefined> {
  const row = await db
    .selectFrom('web_api_credentials')
    .select(['id', 'name', 'kind', 'connection_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { id: row.id, name: row.name, kind: row.kind, connectionId: row.connection_id };
}

/** A credential's row (its sealed secret included), of the given connection when one is named. */
export function findCredentialRow(db: Database, id: number, connectionId?: number) {
  let query = db.selectFrom('web_api_credentials').selectAll().where('id', '=', id);
  if (connectionId !== undefined) query = query.where('connection_id', '=', connectionId);
  return query.executeTakeFirst();
}
