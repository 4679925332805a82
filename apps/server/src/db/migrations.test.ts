import { expect, it } from 'vitest';
import type { Config } from '../config.ts';
import { createPostgresDatabase } from '../../test/support/stores.ts';
import { describeEachStore } from '../../test/support/suite.ts';
import { createDatabase, migrateToLatest, MigrationFailedError } from './database.ts';
import { migrations } from './migrations/index.ts';

describeEachStore('migrations', (ctx, store) => {
  it('leave the store as it was when one of them fails', async () => {
    const postgres = store === 'postgres' ? await createPostgresDatabase() : undefined;
    const target: Config['database'] = postgres
      ? { kind: 'postgres', url: postgres.url, poolMax: 2 }
      : { kind: 'sqlite', file: `${ctx().config.dataDir}/interrupted.sqlite` };
    const db = createDatabase(target);
    try {
      const broken = {
        ...migrations,
        '20991231_0001_broken': {
          up: async () => {
            throw new Error('disk on fire');
          },
        },
      };
      await expect(migrateToLatest(db, broken)).rejects.toThrow(MigrationFailedError);
      const tables = (await db.introspection.getTables()).map((table) => table.name);
      expect(tables).not.toContain('users');
      expect(tables).not.toContain('application_logs');
      // Fixed, the same store then migrates cleanly from scratch.
      expect(await migrateToLatest(db)).toEqual(Object.keys(migrations));
    } finally {
      await db.destroy();
      await postgres?.drop();
    }
  });

  it('run once: a second start applies nothing', async () => {
    expect(await migrateToLatest(ctx().app.db)).toEqual([]);
  });
});
