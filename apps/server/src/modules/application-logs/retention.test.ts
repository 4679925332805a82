import { expect, it } from 'vitest';
import type { NewApplicationLog } from '../../db/schema.ts';
import type { TestApp } from '../../../test/support/app.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import { RETENTION_BATCH } from './retention.service.ts';

// Retention of the application log (plugins/app-log-retention.ts) on both stores: by age, then by count, in
// batches (more records than one batch go each way).

const DAY_MS = 86_400_000;
const now = new Date('2026-11-23T12:00:00.000Z');

async function insertMany(t: TestApp, count: number, createdAt: (index: number) => Date, tag: string) {
  for (let start = 0; start < count; start += 400) {
    const rows: NewApplicationLog[] = [];
    for (let index = start; index < Math.min(count, start + 400); index += 1) {
      rows.push({
        created_at: createdAt(index).toISOString(),
        level: 'info',
        category: 'retention',
        message: `${tag} ${index}`,
        request_id: null,
        user_id: null,
        details: null,
      });
    }
    await t.app.db.insertInto('application_logs').values(rows).execute();
  }
}

const messages = async (t: TestApp) =>
  (await t.app.db.selectFrom('application_logs').select('message').orderBy('id').execute()).map((r) => r.message);

describeEachStore(
  'application log retention',
  (ctx) => {
    it('removes records older than the retention age, and beyond the count the oldest', async () => {
      const t = ctx();
      await t.app.appLogRetention.run(now); // whatever the start wrote
      await t.app.db.deleteFrom('application_logs').execute();
      const old = RETENTION_BATCH * 2 + 10;
      const recent = 3_010;
      await insertMany(t, old, (i) => new Date(now.getTime() - 8 * DAY_MS + i), 'old');
      // One just inside the age limit, written first: it is kept by age but is the oldest by count.
      await insertMany(t, 1, () => new Date(now.getTime() - 7 * DAY_MS + 60_000), 'edge');
      await insertMany(t, recent, (i) => new Date(now.getTime() - 60_000 + i), 'recent');

      const result = await t.app.appLogRetention.run(now);
      expect(result).toEqual({ byAge: old, bySize: 1 + recent - 3_000 });
      const kept = await messages(t);
      expect(kept).toHaveLength(3_000);
      expect(kept[0]).toBe(`recent ${recent - 3_000}`);
      expect(kept.at(-1)).toBe(`recent ${recent - 1}`);
      expect(await t.app.appLogRetention.run(now)).toEqual({ byAge: 0, bySize: 0 });
    });
  },
  { env: { APP_LOG_RETENTION_DAYS: '7', APP_LOG_RETENTION_MAX_ROWS: '3000' } },
);
