import { sql, type Kysely } from 'kysely';

// Frozen. A connection's name is unique in its collection regardless of case, and the store enforces it, so two
// creations at the same instant cannot both pass (before, PostgreSQL let "Shop" and "shop" live side by side and a
// race on the case-sensitive constraint answered 500). `name_key` is the name in lower case as JavaScript folds
// it, the same on both stores whatever their collation (as for collections and groups).
//
// Names that already clash in a collection are kept apart, not refused: the oldest keeps its name, each later one
// becomes "Name (2)", "Name (3)", ... (the first free one). Data assets refer to connections by id, so nothing
// else changes.

interface Row {
  id: number;
  collection_id: number;
  name: string;
}

const keyOf = (name: string) => name.toLowerCase();

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('connections')
    .addColumn('name_key', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  const rows = (await sql<Row>`select id, collection_id, name from connections order by collection_id, id`.execute(db))
    .rows;
  const taken = new Map<number, Set<string>>();
  for (const row of rows) {
    const set = taken.get(row.collection_id) ?? new Set<string>();
    taken.set(row.collection_id, set);
    set.add(keyOf(row.name));
  }
  const seen = new Map<number, Set<string>>();
  for (const row of rows) {
    const kept = seen.get(row.collection_id) ?? new Set<string>();
    seen.set(row.collection_id, kept);
    const used = taken.get(row.collection_id) ?? new Set<string>();
    let name = row.name;
    if (kept.has(keyOf(name))) {
      let n = 2;
      while (used.has(keyOf(`${row.name} (${n})`))) n += 1;
      name = `${row.name} (${n})`;
      used.add(keyOf(name));
    }
    kept.add(keyOf(name));
    await sql`update connections set name = ${name}, name_key = ${keyOf(name)} where id = ${row.id}`.execute(db);
  }
  await db.schema
    .createIndex('connections_collection_name_key_unique')
    .on('connections')
    .columns(['collection_id', 'name_key'])
    .unique()
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('connections_collection_name_key_unique').execute();
  await db.schema.alterTable('connections').dropColumn('name_key').execute();
}
