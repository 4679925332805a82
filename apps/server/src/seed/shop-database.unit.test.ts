import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureShopDatabase } from './shop-database.ts';

describe('the demo shop database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'shop-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is generated whole, with orders that reference real customers and products', () => {
    const file = join(dir, 'shop.sqlite');
    expect(ensureShopDatabase(file, { customers: 300, orders: 2_000 })).toBe(true);
    expect(readdirSync(dir)).toEqual(['shop.sqlite']);
    const db = new DatabaseSync(file, { readOnly: true });
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    expect(count('orders')).toBe(2_000);
    expect(count('customers')).toBe(300);
    expect(count('regions')).toBe(4);
    expect(count('countries')).toBeGreaterThan(10);
    const orphans = db
      .prepare(
        'SELECT count(*) AS n FROM orders o LEFT JOIN customers c ON c.id = o.customer_id LEFT JOIN products p ON p.id = o.product_id WHERE c.id IS NULL OR p.id IS NULL',
      )
      .get() as { n: number };
    expect(orphans.n).toBe(0);
    const wrongTotals = db
      .prepare('SELECT count(*) AS n FROM orders WHERE abs(total - quantity * unit_price) > 0.005')
      .get() as { n: number };
    expect(wrongTotals.n).toBe(0);
    db.close();
  });

  it('is the same on every machine for one seed, and left alone when it exists', () => {
    const a = join(dir, 'a.sqlite');
    const b = join(dir, 'b.sqlite');
    ensureShopDatabase(a, { customers: 50, orders: 200 }, 7);
    ensureShopDatabase(b, { customers: 50, orders: 200 }, 7);
    const rows = (file: string) => {
      const db = new DatabaseSync(file, { readOnly: true });
      const all = db.prepare('SELECT * FROM orders ORDER BY id').all();
      db.close();
      return all;
    };
    expect(rows(a)).toEqual(rows(b));
    expect(ensureShopDatabase(a, { customers: 1, orders: 1 })).toBe(false);
    expect(rows(a)).toHaveLength(200);
  });
});
