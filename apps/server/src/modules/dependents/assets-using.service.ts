import type { Database } from '../../db/database.ts';

// The data assets that use a connection or send a credential, by name: what a 409 on its deletion names.

const NAMED = 10;

export async function assetsUsing(
  db: Database,
  column: 'connection_id' | 'credential_id',
  id: number,
): Promise<{ ref: string; name: string }[]> {
  const rows = await db
    .selectFrom('data_sources')
    .select(['uid', 'name'])
    .where(column, '=', id)
    .orderBy('name')
    .execute();
  return rows.map((row) => ({ ref: row.uid, name: row.name }));
}

/** "A, B and 3 more": the first names of a list, for a message. */
export function someNames(names: readonly string[]): string {
  if (names.length <= NAMED) return names.join(', ');
  return `${names.slice(0, NAMED).join(', ')} and ${names.length - NAMED} more`;
}

/** The 409's title for an object data assets still depend on. */
export async function usedByText(
  db: Database,
  what: string,
  column: 'connection_id' | 'credential_id',
  id: number,
  verb: 'used' | 'sent',
  then: string,
): Promise<string> {
  const names = (await assetsUsing(db, column, id)).map((a) => a.name);
  return `${what} is ${verb} by ${names.length} data asset(s): ${someNames(names)}; ${then}`;
}
