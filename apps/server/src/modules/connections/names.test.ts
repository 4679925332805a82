import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { problem } from '@datalab/contract/errors';
import { createDatabase, migrateToLatest } from '../../db/database.ts';
import { migrations } from '../../db/migrations/index.ts';
import type { TestApp } from '../../../test/support/app.ts';
import { buildCollection, buildPerson, unique } from '../../../test/support/builders.ts';
import { createPostgresDatabase } from '../../../test/support/stores.ts';
import { describeEachStore } from '../../../test/support/suite.ts';

// A connection's name is unique in its collection regardless of case, the same on both stores (Unicode case
// too), and the store decides: simultaneous creations of one name give one 201 and 409s, never a 500. Migration
// 0005 keeps names that already clash apart instead of failing.

function sqliteFile(t: TestApp) {
  mkdirSync(join(t.config.dataDir, 'names'), { recursive: true });
  const db = new DatabaseSync(join(t.config.dataDir, 'names/n.sqlite'));
  db.close();
  return 'names/n.sqlite';
}

async function owner(t: TestApp) {
  const person = await buildPerson(t);
  const collection = await buildCollection(t, person);
  const database = sqliteFile(t);
  const create = (name: string, collectionUid = collection.uid) =>
    person.call('POST', '/api/SqlConnection', { collectionUid, name, kind: 'sqlite', database });
  return { person, collection, database, create };
}

const conflictTitle = (name: string) => `SQL connection with name ${name} already exists`;

describeEachStore('SQL connection names', (ctx, store) => {
  it('are unique per collection whatever their case, Unicode included', async () => {
    const { person, collection, database, create } = await owner(ctx());
    const base = unique('Äpfel');
    expect((await create(base)).statusCode).toBe(201);
    for (const clash of [base.toUpperCase(), base.toLowerCase(), ` ${base} `]) {
      const refused = await create(clash);
      expect(refused.statusCode, clash).toBe(409);
      expect(problem.parse(refused.json()).title).toBe(conflictTitle(clash.trim()));
      expect(refused.json<{ errors: unknown }>().errors).toEqual({ name: [conflictTitle(clash.trim())] });
    }
    // Another collection may use the name.
    const elsewhere = await buildCollection(ctx(), person);
    expect((await create(base, elsewhere.uid)).statusCode).toBe(201);

    // A rename onto another connection's name (in another case) is refused; onto its own name in a new case, not.
    const other = await create(unique('Other'));
    const otherId = other.json<{ id: number }>().id;
    const settings = { kind: 'sqlite', database };
    const renamed = await person.call('PUT', `/api/SqlConnection/${otherId}`, {
      ...settings,
      name: base.toLowerCase(),
    });
    expect(renamed.statusCode).toBe(409);
    const recased = await person.call('PUT', `/api/SqlConnection/${otherId}`, {
      ...settings,
      name: other.json<{ name: string }>().name.toUpperCase(),
    });
    expect(recased.statusCode, recased.body).toBe(200);
    const names = await ctx()
      .app.db.selectFrom('connections')
      .select('name')
      .where('collection_id', '=', collection.id)
      .orderBy('id')
      .execute();
    expect(names.map((row) => row.name)).toEqual([base, other.json<{ name: string }>().name.toUpperCase()]);
  });

  it(`answers simultaneous creations of one name with one 201 and 409s [${store}]`, async () => {
    const { collection, create } = await owner(ctx());
    for (let round = 0; round < 5; round += 1) {
      const name = unique('Race');
      const replies = await Promise.all([create(name), create(name.toUpperCase()), create(name.toLowerCase())]);
      const statuses = replies.map((reply) => reply.statusCode).sort();
      expect(statuses, replies.map((reply) => reply.body).join('\n')).toEqual([201, 409, 409]);
      for (const reply of replies.filter((r) => r.statusCode === 409)) {
        expect(problem.parse(reply.json()).title).toMatch(/^SQL connection with name race-.* already exists$/i);
      }
    }
    const stored = await ctx()
      .app.db.selectFrom('connections')
      .select(sql<number>`count(*)`.as('n'))
      .where('collection_id', '=', collection.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(5);
  });

  it('migration 0005 keeps names that already clash apart: the oldest keeps its name', async () => {
    const postgres = store === 'postgres' ? await createPostgresDatabase() : undefined;
    const db = createDatabase(
      postgres
        ? { kind: 'postgres', url: postgres.url, poolMax: 2 }
        : { kind: 'sqlite', file: join(ctx().config.dataDir, `names-${unique()}.sqlite`) },
    );
    try {
      const names = Object.keys(migrations);
      const before = Object.fromEntries(
        names.filter((name) => name < '20261123_0005').map((name) => [name, migrations[name]!]),
      );
      await migrateToLatest(db, before);
      const at = new Date().toISOString();
      const collectionIds: number[] = [];
      for (const name of ['One', 'Two']) {
        await sql`insert into collections (uid, name, name_key, created_at, updated_at)
          values (${name}, ${name}, ${name.toLowerCase()}, ${at}, ${at})`.execute(db);
        const row = await sql<{ id: number }>`select id from collections where uid = ${name}`.execute(db);
        collectionIds.push(row.rows[0]!.id);
      }
      const [one, two] = collectionIds;
      const rows: [number | undefined, string][] = [
        [one, 'Shop'],
        [one, 'SHOP'],
        [one, 'shop (2)'],
        [one, 'shop'],
        [two, 'shop'],
        [one, 'Other'],
      ];
      for (const [collectionId, name] of rows) {
        await sql`insert into connections (collection_id, name, kind, created_at, updated_at)
          values (${collectionId}, ${name}, 'sql', ${at}, ${at})`.execute(db);
      }
      await migrateToLatest(db);
      const after = await sql<{ collection_id: number; name: string; name_key: string }>`
        select collection_id, name, name_key from connections order by id`.execute(db);
      expect(after.rows.map((row) => [row.collection_id, row.name, row.name_key])).toEqual([
        [one, 'Shop', 'shop'],
        [one, 'SHOP (3)', 'shop (3)'],
        [one, 'shop (2)', 'shop (2)'],
        [one, 'shop (4)', 'shop (4)'],
        [two, 'shop', 'shop'],
        [one, 'Other', 'other'],
      ]);
      await expect(
        sql`insert into connections (collection_id, name, name_key, kind, created_at, updated_at)
          values (${one}, 'OTHER', 'other', 'sql', ${at}, ${at})`.execute(db),
      ).rejects.toThrow();
    } finally {
      await db.destroy();
      await postgres?.drop();
    }
  });
});
