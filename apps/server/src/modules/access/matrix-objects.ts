import type { Insertable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';

// Connections and assets of the matrix's target collection, written straight to the store for the SQL and Web API
// parts of its world (sql-matrix-world.ts, web-api-matrix-world.ts).

type Given<Table extends keyof DB, Filled extends string> = Omit<
  Insertable<DB[Table]>,
  Filled | 'collection_id' | 'created_at' | 'updated_at'
>;

/** Writes into `collectionId`, every row stamped with the time it was made; `stamps` for the parts' other rows. */
export function collectionObjects(db: Database, collectionId: number) {
  const at = new Date().toISOString();
  const stamps = { created_at: at, updated_at: at };
  return {
    stamps,
    /** A connection, its name key from its name; answers its id. */
    connection: async (values: Given<'connections', 'name_key'>) =>
      (
        await db
          .insertInto('connections')
          .values({ ...values, collection_id: collectionId, name_key: values.name.toLowerCase(), ...stamps })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    /** A data asset; answers its uid. */
    asset: async (values: Given<'data_sources', never>) => {
      await db
        .insertInto('data_sources')
        .values({ ...values, collection_id: collectionId, ...stamps })
        .execute();
      return values.uid;
    },
  };
}
