import type { Database } from '../../db/database.ts';
import type { NewApplicationLog } from '../../db/schema.ts';

export function insertLog(db: Database, entry: NewApplicationLog) {
  return db.insertInto('application_logs').values(entry).execute();
}

export function deleteLogsBefore(db: Database, before: string) {
  return db.deleteFrom('application_logs').where('created_at', '<', before).executeTakeFirst();
}
