import { DatabaseSync } from 'node:sqlite';
import { expect, it } from 'vitest';
import { createTestApp } from '../../../test/support/app.ts';
import { buildCollection, buildPerson } from '../../../test/support/builders.ts';
import { buildAsset, buildConnection, createSqliteSource } from '../../../test/support/orders-source.ts';

// Usage records still waiting in memory are written when the app shuts down, before the store closes.

it('writes buffered usage records at shutdown', async () => {
  const t = await createTestApp('sqlite', { USAGE_FLUSH_MS: '60000' });
  try {
    const reader = await buildPerson(t);
    const collection = await buildCollection(t, reader);
    const connection = await buildConnection(reader, collection, { driver: 'sqlite', path: createSqliteSource(t) });
    const asset = await buildAsset(reader, collection, connection, { sql: 'select id from orders' });
    expect((await reader.call('GET', `/data/v1/${asset.uid}`)).statusCode).toBe(200);
    await t.app.close();
    if (t.config.database.kind !== 'sqlite') throw new Error('expected the SQLite store');
    const store = new DatabaseSync(t.config.database.file, { readOnly: true });
    const rows = store.prepare('select status, row_count from usage_records where data_source_uid = ?').all(asset.uid);
    store.close();
    expect(rows).toEqual([{ status: 200, row_count: 20 }]);
  } finally {
    await t.close();
  }
});
