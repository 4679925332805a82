import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

// The demo's sample shop (product §12): a SQLite database of regions, countries, customers, products
// and orders, generated deterministically (the same seed gives the same rows) so demo assets and
// tests can rely on its shape. Written under a temporary name and renamed: it is whole or absent.

export interface ShopSize {
  customers: number;
  orders: number;
}

export const DEMO_SHOP_SIZE: ShopSize = { customers: 5_000, orders: 100_000 };

const REGIONS: [region: string, countries: [code: string, name: string][]][] = [
  [
    'Europe',
    [
      ['DE', 'Germany'],
      ['FR', 'France'],
      ['NL', 'Netherlands'],
      ['ES', 'Spain'],
      ['SE', 'Sweden'],
    ],
  ],
  [
    'North America',
    [
      ['US', 'United States'],
      ['CA', 'Canada'],
      ['MX', 'Mexico'],
    ],
  ],
  [
    'Asia Pacific',
    [
      ['JP', 'Japan'],
      ['AU', 'Australia'],
      ['SG', 'Singapore'],
      ['IN', 'India'],
    ],
  ],
  [
    'Latin America',
    [
      ['BR', 'Brazil'],
      ['AR', 'Argentina'],
      ['CL', 'Chile'],
    ],
  ],
];

const CATEGORIES: [category: string, products: string[]][] = [
  ['Coffee', ['Espresso beans', 'Filter roast', 'Decaf blend', 'Cold brew pack']],
  ['Tea', ['Green tea', 'Earl Grey', 'Rooibos', 'Chai mix']],
  ['Equipment', ['Grinder', 'Kettle', 'French press', 'Pour-over set', 'Scale']],
  ['Bakery', ['Croissant box', 'Biscotti', 'Banana bread']],
];

const FIRST = [
  'Ada',
  'Ben',
  'Chloé',
  'Dmitri',
  'Eva',
  'Farah',
  'Gustav',
  'Hana',
  'Ivan',
  'Jun',
  'Kofi',
  'Lena',
  'Mateo',
  'Nora',
  'Omar',
  'Priya',
];
const LAST = [
  'Novak',
  'Schmidt',
  'García',
  'Okafor',
  'Tanaka',
  'Silva',
  'Martin',
  'Larsen',
  'Kowalski',
  'Rossi',
  "O'Brien",
  'Ng',
];
const SEGMENTS = ['Consumer', 'Business', 'Reseller'];
const STATUSES = ['delivered', 'delivered', 'delivered', 'shipped', 'processing', 'cancelled'];

/** A small deterministic generator (mulberry32): the demo is the same on every machine. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: T[]) => items[Math.floor(next() * items.length)] as T,
  };
}

const SCHEMA = `
  CREATE TABLE regions (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
  CREATE TABLE countries (id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
    region_id INTEGER NOT NULL REFERENCES regions(id));
  CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL UNIQUE,
    segment TEXT NOT NULL, country_id INTEGER NOT NULL REFERENCES countries(id), created_at TEXT NOT NULL);
  CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL,
    unit_price NUMERIC NOT NULL, active INTEGER NOT NULL);
  CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id),
    product_id INTEGER NOT NULL REFERENCES products(id), quantity INTEGER NOT NULL, unit_price NUMERIC NOT NULL,
    total NUMERIC NOT NULL, status TEXT NOT NULL, ordered_at TEXT NOT NULL, shipped_at TEXT);
  CREATE INDEX orders_customer ON orders(customer_id);
  CREATE INDEX orders_ordered_at ON orders(ordered_at);
  CREATE INDEX customers_country ON customers(country_id);
  CREATE INDEX countries_region ON countries(region_id);
`;

/** Creates the shop database at `file` unless it exists. Returns whether it was created. */
export function ensureShopDatabase(file: string, size: ShopSize = DEMO_SHOP_SIZE, seed = 20261123): boolean {
  if (existsSync(file)) return false;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  const db = new DatabaseSync(temporary);
  try {
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;');
    db.exec(SCHEMA);
    db.exec('BEGIN');
    fill(db, size, random(seed));
    db.exec('COMMIT');
    db.close();
    renameSync(temporary, file);
    return true;
  } catch (error) {
    if (db.isOpen) db.close();
    rmSync(temporary, { force: true });
    throw error;
  }
}

function fill(db: DatabaseSync, size: ShopSize, rnd: ReturnType<typeof random>) {
  const region = db.prepare('INSERT INTO regions (id, name) VALUES (?, ?)');
  const country = db.prepare('INSERT INTO countries (id, code, name, region_id) VALUES (?, ?, ?, ?)');
  let countryCount = 0;
  REGIONS.forEach(([name, countries], r) => {
    region.run(r + 1, name);
    for (const [code, countryName] of countries) country.run((countryCount += 1), code, countryName, r + 1);
  });

  const product = db.prepare('INSERT INTO products (id, name, category, unit_price, active) VALUES (?, ?, ?, ?, ?)');
  const prices: number[] = [];
  for (const [category, names] of CATEGORIES) {
    for (const name of names) {
      const cents = rnd.int(250, 24_900);
      prices.push(cents);
      product.run(prices.length, name, category, (cents / 100).toFixed(2), rnd.next() < 0.9 ? 1 : 0);
    }
  }

  const customer = db.prepare(
    'INSERT INTO customers (id, name, email, segment, country_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const start = Date.UTC(2023, 0, 1);
  const day = 86_400_000;
  for (let id = 1; id <= size.customers; id += 1) {
    const first = rnd.pick(FIRST);
    const last = rnd.pick(LAST);
    const email = `${first}.${last}.${id}@example.com`.toLowerCase().replace(/[^a-z0-9.@]/g, '');
    const created = new Date(start + rnd.int(0, 700) * day).toISOString().slice(0, 10);
    customer.run(id, `${first} ${last}`, email, rnd.pick(SEGMENTS), rnd.int(1, countryCount), created);
  }

  const order = db.prepare(
    'INSERT INTO orders (id, customer_id, product_id, quantity, unit_price, total, status, ordered_at, shipped_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (let id = 1; id <= size.orders; id += 1) {
    const productId = rnd.int(1, prices.length);
    const cents = prices[productId - 1] ?? 0;
    const quantity = rnd.int(1, 12);
    const status = rnd.pick(STATUSES);
    const ordered = start + rnd.int(0, 1_050) * day + rnd.int(0, day - 1);
    const shipped =
      status === 'delivered' || status === 'shipped' ? new Date(ordered + rnd.int(1, 6) * day).toISOString() : null;
    order.run(
      id,
      rnd.int(1, size.customers),
      productId,
      quantity,
      (cents / 100).toFixed(2),
      ((cents * quantity) / 100).toFixed(2),
      status,
      new Date(ordered).toISOString(),
      shipped,
    );
  }
}
