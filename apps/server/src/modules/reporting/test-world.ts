import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { TestApp } from '../../../test/support/app.ts';
import { buildCollection, unique, type Person } from '../../../test/support/builders.ts';
import { collectionFilePath } from '../../../test/support/sqlite-files.ts';

// Test data for the call log records: a collection of `owner` with a SQLite source of ten orders (amount = 10 ×
// id) and a connection to it, made through the management API; SQL assets over it.

export interface CallWorld {
  collection: { id: number; uid: string };
  asset: (options: {
    sql: string;
    name?: string;
    parameters?: Record<string, unknown>[];
  }) => Promise<{ id: number; uid: string }>;
}

export async function buildCallWorld(t: TestApp, owner: Person, readers: Person[] = []): Promise<CallWorld> {
  const collection = await buildCollection(t, owner, { roles: readers.map((reader) => [reader, 'Reader']) });
  const relative = `${unique('calls')}.sqlite`;
  const file = collectionFilePath(t.config.dataDir, collection.uid, relative);
  mkdirSync(dirname(file), { recursive: true });
  const source = new DatabaseSync(file);
  source.exec('create table orders (id integer primary key, amount integer not null)');
  for (let id = 1; id <= 10; id += 1) source.prepare('insert into orders values (?, ?)').run(id, id * 10);
  source.close();

  const made = await owner.call('POST', '/api/SqlConnection', {
    collectionUid: collection.uid,
    name: unique('conn'),
    kind: 'sqlite',
    database: relative,
  });
  if (made.statusCode !== 201) throw new Error(`connection: ${made.statusCode} ${made.body}`);
  const connectionId = made.json<{ id: number }>().id;

  return {
    collection,
    asset: async ({ sql, name = unique('Orders'), parameters = [] }) => {
      const response = await owner.call('POST', '/api/SqlDataSource', {
        collectionUid: collection.uid,
        connectionId,
        name,
        sql,
        cacheTtlSeconds: 0,
        rowCap: 1000,
        timeoutMs: 10_000,
        parameters,
        transformations: [],
      });
      if (response.statusCode !== 201) throw new Error(`asset: ${response.statusCode} ${response.body}`);
      return response.json<{ id: number; uid: string }>();
    },
  };
}
