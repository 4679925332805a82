import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect, it } from 'vitest';
import { sqlConnection } from '@datalab/contract/api/sql-connections';
import { validationProblem } from '@datalab/contract/errors';
import type { TestApp } from '../../../test/support/app.ts';
import { buildCollection, buildPerson, unique } from '../../../test/support/builders.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { collectionFolder, SQLITE_OUTSIDE } from './sqlite-files.ts';

// SQLite files belong to the collection whose folder holds them (DATA_DIR/sqlite/<uid>/). Another collection's Owner
// reaches none of them: not by `..`, not by an absolute path, not through a link, not through the old shared path of
// the demo's shop. Folders of SQLITE_SHARED_PATHS are readable by every collection, read-only; links out of them are
// not.

const shared = mkdtempSync(join(tmpdir(), 'datalab-shared-'));
const sharedFile = join(shared, 'rates.sqlite');
const rates = new DatabaseSync(sharedFile);
rates.exec("create table if not exists rates (currency text, rate real); insert into rates values ('EUR', 1)");
rates.close();

async function salesOf(t: TestApp) {
  const row = await t.app.db
    .selectFrom('collections')
    .select('uid')
    .where('name', '=', 'Sales')
    .executeTakeFirstOrThrow();
  return { uid: row.uid, shop: join(collectionFolder(t.config.dataDir, row.uid), 'shop.sqlite') };
}

async function stranger(t: TestApp) {
  const owner = await buildPerson(t);
  const collection = await buildCollection(t, owner);
  const create = (database: string) =>
    owner.call('POST', '/api/SqlConnection', {
      collectionUid: collection.uid,
      name: unique('Files'),
      kind: 'sqlite',
      database,
    });
  return { owner, collection, create };
}

describeApp(
  'SQLite files per collection',
  (ctx) => {
    it("opens the demo's shop from the demo collection only", async () => {
      const admin = await ctx().tokenFor('admin');
      const sales = await ctx()
        .app.db.selectFrom('connections')
        .innerJoin('collections', 'collections.id', 'connections.collection_id')
        .select(['connections.id as id', 'connections.database_name as database'])
        .where('collections.name', '=', 'Sales')
        .where('connections.name', '=', 'Shop')
        .executeTakeFirstOrThrow();
      expect(sales.database).toBe('shop.sqlite');
      const schema = await ctx().app.inject({
        method: 'GET',
        url: `/api/SqlConnection/${sales.id}/Schema`,
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(schema.statusCode, schema.body).toBe(200);
      expect(schema.body).toContain('orders');

      // Another collection: its own folder has no shop; the demo's is out of reach however it is named.
      const { owner, collection, create } = await stranger(ctx());
      const { uid, shop } = await salesOf(ctx());
      const folder = collectionFolder(ctx().config.dataDir, collection.uid);
      mkdirSync(folder, { recursive: true });
      symlinkSync(collectionFolder(ctx().config.dataDir, uid), join(folder, 'sales'));
      symlinkSync(shop, join(folder, 'shop-link.sqlite'));
      for (const database of [
        `../${uid}/shop.sqlite`,
        shop,
        'sales/shop.sqlite',
        'shop-link.sqlite',
        join(ctx().config.dataDir, 'datalab.sqlite'),
        '../../secrets.json',
        '/etc/passwd',
      ]) {
        const refused = await create(database);
        expect(refused.statusCode, database).toBe(400);
        expect(validationProblem.parse(refused.json()).errors, database).toEqual({ database: [SQLITE_OUTSIDE] });
      }
      // The path every collection used to share names a file of this collection's folder now: there is none.
      mkdirSync(join(ctx().config.dataDir, 'demo'), { recursive: true });
      copyFileSync(shop, join(ctx().config.dataDir, 'demo', 'shop.sqlite'));
      const old = await create('demo/shop.sqlite');
      expect(old.statusCode, old.body).toBe(201);
      const oldSchema = await owner.call('GET', `/api/SqlConnection/${sqlConnection.parse(old.json()).id}/Schema`);
      expect(oldSchema.statusCode).not.toBe(200);
      expect(oldSchema.body).not.toContain('orders');
    });

    it('opens nothing when a stored path leaves the collection (saved before the rule)', async () => {
      const { owner, create } = await stranger(ctx());
      const { uid } = await salesOf(ctx());
      const made = sqlConnection.parse((await create('later.sqlite')).json());
      await ctx()
        .app.db.updateTable('connections')
        .set({ database_name: `../${uid}/shop.sqlite`, updated_at: new Date().toISOString() })
        .where('id', '=', made.id)
        .execute();
      const schema = await owner.call('GET', `/api/SqlConnection/${made.id}/Schema`);
      expect(schema.statusCode).not.toBe(200);
      expect(schema.body).not.toContain('orders');
    });

    it('lets every collection read the shared folders, and nothing a link in them leads to', async () => {
      const { owner, create } = await stranger(ctx());
      const made = await create(sharedFile);
      expect(made.statusCode, made.body).toBe(201);
      const schema = await owner.call('GET', `/api/SqlConnection/${sqlConnection.parse(made.json()).id}/Schema`);
      expect(schema.statusCode).toBe(200);
      expect(schema.body).toContain('rates');
      const { shop } = await salesOf(ctx());
      const linkName = `in-${unique('l')}.sqlite`;
      symlinkSync(shop, join(shared, linkName));
      for (const database of [join(shared, linkName), join(shared, '..', 'elsewhere.sqlite')]) {
        const refused = await create(database);
        expect(refused.statusCode, database).toBe(400);
        expect(validationProblem.parse(refused.json()).errors).toEqual({ database: [SQLITE_OUTSIDE] });
      }
    });
  },
  { env: { SQLITE_SHARED_PATHS: shared } },
);
