import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app.ts';
import { auditRecords, buildCollection, buildPerson, unique } from '../../../test/support/builders.ts';
import { collectionFolder } from './sqlite-files.ts';

// What carries over from one start to the next on one data folder: the reach settings (SQL_HOST_ALLOWLIST,
// SQLITE_SHARED_PATHS) are audited when their value differs from the last start's, and an install whose demo
// connections named the one shared shop file (DATA_DIR/demo/shop.sqlite) has them moved to their collections'
// copies, once; another collection's connection to that path stays out of reach.

const dir = mkdtempSync(join(tmpdir(), 'datalab-restarts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function start(allowlist: string, shared = '/srv/none') {
  const t = await createTestApp('sqlite', {
    DATA_DIR: dir,
    SQL_HOST_ALLOWLIST: allowlist,
    SQLITE_SHARED_PATHS: shared,
  });
  return t;
}

const demoShops = (t: TestApp) =>
  t.app.db
    .selectFrom('connections')
    .innerJoin('collections', 'collections.id', 'connections.collection_id')
    .select(['connections.id as id', 'collections.uid as uid', 'connections.database_name as database'])
    .where('connections.name', '=', 'Shop')
    .where('collections.name', 'in', ['Sales', 'Operations'])
    .orderBy('connections.id')
    .execute();

describe('reach settings and the demo shop across restarts', () => {
  it('audits SQL_HOST_ALLOWLIST and SQLITE_SHARED_PATHS when they change between starts, and only then', async () => {
    const first = await start('*');
    await first.close();
    const second = await start('10.0.0.0/8, db.internal:5432 ,*');
    await second.close();
    const third = await start('*,db.internal:5432,10.0.0.0/8', '/srv/shared');
    const records = (await auditRecords(third, 'setting.change')).map((r) => {
      const details = r.details as unknown as {
        target: { id: string };
        actor: unknown;
        before: unknown;
        after: unknown;
      };
      return {
        target: details.target.id,
        before: details.before,
        after: (details.after as { value: string }).value,
        actor: details.actor,
      };
    });
    expect(records).toEqual([
      { target: 'SQL_HOST_ALLOWLIST', before: null, after: '*', actor: null },
      { target: 'SQLITE_SHARED_PATHS', before: null, after: '/srv/none', actor: null },
      { target: 'SQL_HOST_ALLOWLIST', before: { value: '*' }, after: '*,10.0.0.0/8,db.internal:5432', actor: null },
      // The same list in another order is no change; the shared folders are.
      { target: 'SQLITE_SHARED_PATHS', before: { value: '/srv/none' }, after: '/srv/shared', actor: null },
    ]);
    await third.close();
  });

  it("moves an older install's demo connections to their collections' shop copies, once", async () => {
    const t = await start('*');
    const shops = await demoShops(t);
    expect(shops.map((s) => s.database)).toEqual(['shop.sqlite', 'shop.sqlite']);
    // As an older install left it: both connections name the shared file, which alone exists; the seed's record of
    // its connections is not there. And another collection's Owner points a connection at the same path.
    const sales = join(collectionFolder(dir, shops[0]!.uid), 'shop.sqlite');
    mkdirSync(join(dir, 'demo'), { recursive: true });
    copyFileSync(sales, join(dir, 'demo', 'shop.sqlite'));
    rmSync(join(dir, 'sqlite'), { recursive: true });
    await t.app.db.deleteFrom('app_state').where('key', '=', 'demo.shopConnections').execute();
    await t.app.db
      .updateTable('connections')
      .set({ database_name: 'demo/shop.sqlite' })
      .where(
        'id',
        'in',
        shops.map((s) => s.id),
      )
      .execute();
    const ownerSub = unique('owner');
    const owner = await buildPerson(t, { sub: ownerSub });
    const other = await buildCollection(t, owner);
    const at = new Date().toISOString();
    const { id: otherId } = await t.app.db
      .insertInto('connections')
      .values({
        collection_id: other.id,
        name: 'Shop',
        name_key: 'shop',
        kind: 'sql',
        driver: 'sqlite',
        database_name: 'demo/shop.sqlite',
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.close();

    const again = await start('*');
    const moved = await demoShops(again);
    expect(moved.map((s) => s.database)).toEqual(['shop.sqlite', 'shop.sqlite']);
    for (const shop of moved) expect(existsSync(join(collectionFolder(dir, shop.uid), 'shop.sqlite'))).toBe(true);
    const admin = await again.tokenFor('admin');
    const schema = await again.app.inject({
      method: 'GET',
      url: `/api/SqlConnection/${moved[0]!.id}/Schema`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(schema.statusCode, schema.body).toBe(200);
    expect(schema.body).toContain('orders');
    const stranger = await again.app.db
      .selectFrom('connections')
      .select('database_name')
      .where('id', '=', otherId)
      .executeTakeFirstOrThrow();
    expect(stranger.database_name).toBe('demo/shop.sqlite');
    const refused = await (
      await buildPerson(again, { sub: ownerSub })
    ).call('GET', `/api/SqlConnection/${otherId}/Schema`);
    expect(refused.statusCode).not.toBe(200);
    expect(refused.body).not.toContain('orders');
    // The administrators are told where such a file would have to go, if that collection should read it.
    const warnings = await again.app.db
      .selectFrom('application_logs')
      .select('message')
      .where('category', '=', 'config')
      .execute();
    expect(warnings.map((w) => w.message)).toEqual([
      expect.stringContaining(`SQL connection Shop (id ${otherId}) opens nothing: its path demo/shop.sqlite`),
    ]);
    const stamps = await demoShops(again);
    await again.close();

    // Once: a further start changes nothing.
    const third = await start('*');
    expect(await demoShops(third)).toEqual(stamps);
    await third.close();
  });
});
