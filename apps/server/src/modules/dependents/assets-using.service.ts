import type { Database } from '../../db/database.ts';
import { assetsUsing } from './repository.ts';

// The data assets that use a connection or send a credential, by name: what a 409 on its deletion names.

const NAMED = 10;

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
