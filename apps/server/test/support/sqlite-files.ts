import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { collectionFolder } from '../../src/modules/connections/sqlite-files.ts';

// SQLite files for tests, where connections may open them: in a collection's own folder (DATA_DIR/sqlite/<uid>/).

/** Makes a SQLite file in the collection's folder with the given SQL run in it; answers the path relative to it. */
export function collectionSqliteFile(dataDir: string, collectionUid: string, name: string, sql = ''): string {
  const folder = collectionFolder(dataDir, collectionUid);
  const file = join(folder, name);
  mkdirSync(join(file, '..'), { recursive: true });
  const db = new DatabaseSync(file);
  if (sql) db.exec(sql);
  db.close();
  return name;
}

/** The absolute path of a file of the collection's folder. */
export const collectionFilePath = (dataDir: string, collectionUid: string, name: string) =>
  join(collectionFolder(dataDir, collectionUid), name);
