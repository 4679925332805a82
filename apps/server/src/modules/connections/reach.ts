import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describeSqlHostList } from '@datalab/engine';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.ts';
import { lockFor } from '../../db/locks.ts';
import { findAppState, sqliteConnectionPaths, writeAppState } from './repository.ts';
import { collectionFolder, sqlitePath } from './sqlite-files.ts';

// What SQL connections may reach is the administrator's to decide, in the environment: SQL_HOST_ALLOWLIST (which
// database hosts, internal ones included) and SQLITE_SHARED_PATHS (which folders every collection may read SQLite
// files from). Neither has a screen, so a change would leave no trace; at every start each one's effective value is
// compared with the last one recorded (app_state `setting.<NAME>`) and, when it differs, an audit record (no actor:
// the environment changed it) gives the setting, before and after, and the new value is recorded.

const stateKey = (name: string) => `setting.${name}`;

/** The effective values as compared and recorded: canonical text, so reordering entries is no change. */
export function reachSettings(config: FastifyInstance['config']): Record<string, string> {
  return {
    SQL_HOST_ALLOWLIST: describeSqlHostList(config.sqlHostAllowlist),
    SQLITE_SHARED_PATHS: [...new Set(config.sqliteSharedPaths)].sort().join(','),
  };
}

async function recordOne(app: FastifyInstance, trx: Database, name: string, value: string): Promise<void> {
  const key = stateKey(name);
  const row = await findAppState(trx, key);
  if (row?.value === value) return;
  await app.appLog.write(
    {
      level: 'info',
      category: 'audit',
      message: `setting.change setting ${name}`,
      userId: null,
      details: {
        actor: null,
        action: 'setting.change',
        target: { type: 'setting', id: name, name },
        before: row ? { value: row.value } : null,
        after: { value, source: 'environment, read at start' },
      },
    },
    trx,
  );
  await writeAppState(trx, key, value, row !== undefined);
}

/** Audits each reach setting whose value differs from the one recorded at an earlier start. */
export async function recordReachSettings(app: FastifyInstance): Promise<void> {
  const settings = reachSettings(app.config);
  await app.db.transaction().execute(async (trx) => {
    // Processes starting together record once: the second waits here, then finds the first one's values.
    await lockFor(trx, 'app-state.reach-settings');
    for (const [name, value] of Object.entries(settings)) await recordOne(app, trx, name, value);
  });
}

/**
 * SQLite connections whose file is not where they now look for it (their collection's folder) but where paths
 * relative to DATA_DIR used to lead: one warning each in the application log at start, saying where to move it.
 */
export async function warnMovedSqliteFiles(app: FastifyInstance): Promise<void> {
  const rows = await sqliteConnectionPaths(app.db);
  const { dataDir } = app.sqlRuntime;
  for (const row of rows) {
    const path = row.path ?? '';
    const file = sqlitePath(app.sqlRuntime, row.uid, path);
    const old = resolve(dataDir, path);
    if ((file && existsSync(file)) || !old.startsWith(join(dataDir, '/')) || !existsSync(old)) continue;
    const target = join(collectionFolder(dataDir, row.uid), path);
    await app.appLog.write({
      level: 'warn',
      category: 'config',
      message:
        `SQL connection ${row.name} (id ${row.id}) opens nothing: its path ${path} is read in its collection's ` +
        `folder, ${target}, while the file such paths used to name is ${old}. If this collection should read that ` +
        'file, move or copy it there',
      details: { connectionId: row.id, found: old, expected: target },
    });
  }
}
