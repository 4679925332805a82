import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { parquetReadObjects } from 'hyparquet';
import { expect, it } from 'vitest';
import { ORDER_COUNT, usageOf } from '../../../test/support/orders-source.ts';
import { useOrdersWorld } from '../../../test/support/orders-world.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import { startJob, waitFor } from './test-helpers.ts';

// Downloads through HTTP (inject) on both metadata stores with the in-process queue: start → poll → file, for each
// format, compared with the calling layer's own answer for the same call; who sees what; bad input before any job.

const regionParameter = { name: 'region', type: 'string', required: true };

describeEachStore('downloads (in-process queue)', (context) => {
  const world = useOrdersWorld(context);

  const byRegion = (connectionId: number) =>
    world.asset(connectionId, {
      sql: 'select id, region, customer, amount from orders where region = :region order by id',
      parameters: [regionParameter],
    });

  it('writes the same CSV as the calling layer, through COPY (PostgreSQL) and through the row writer (SQLite)', async () => {
    for (const connectionId of [world.postgresConnection, world.sqliteConnection]) {
      const asset = await byRegion(connectionId);
      const started = await startJob(world.reader, {
        dataAssetUid: asset.uid,
        parameters: { region: 'East' },
        format: 'csv',
      });
      // The in-process queue may have taken it, or on a busy machine even finished it, when the reply reads the row.
      expect(['Queued', 'Running', 'Completed']).toContain(started.state);
      expect(started).toMatchObject({ format: 'csv', parameters: { region: 'East' } });
      expect(started.link).toBe(started.state === 'Completed' ? `/api/Download/${started.id}/File` : null);
      expect(started.id).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      const job = await waitFor(world.reader, started.id);
      expect(job).toMatchObject({ state: 'Completed', rows: 5, truncated: false, message: null });
      expect(job.link).toBe(`/api/Download/${started.id}/File`);
      expect(new Date(job.expiresAt!).getTime() - new Date(job.finishedAt!).getTime()).toBe(24 * 3_600_000);
      const file = await world.reader.call('GET', job.link!);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toContain('text/csv');
      expect(file.headers['content-disposition']).toMatch(
        /^attachment; filename="orders-[a-z0-9-]+\.csv"; filename\*=/,
      );
      const call = await world.reader.call('GET', `/data/v1/${asset.uid}?region=East&format=csv`);
      expect(file.body).toBe(call.body);
      expect(job.size).toBe(Buffer.byteLength(call.body));
      const records = await usageOf(context(), asset.uid);
      expect(records.find((r) => r.channel === 'download')).toMatchObject({ status: 200, format: 'csv' });
      expect(Number(records.find((r) => r.channel === 'download')?.row_count)).toBe(5);
    }
  });

  it('writes Parquet, XLSX, JSON and NDJSON that read back as the rows', async () => {
    const asset = await world.asset(world.postgresConnection, {
      sql: 'select id, region, amount, id % 2 = 0 as even from orders order by id',
    });
    const fetch = async (format: string) => {
      const job = await waitFor(world.reader, (await startJob(world.reader, { dataAssetUid: asset.uid, format })).id);
      expect(job).toMatchObject({ state: 'Completed', rows: ORDER_COUNT });
      return world.reader.call('GET', job.link!);
    };
    const parquet = await fetch('parquet');
    expect(parquet.headers['content-type']).toBe('application/vnd.apache.parquet');
    const rows = await parquetReadObjects({ file: new Uint8Array(parquet.rawPayload).buffer });
    expect(rows).toHaveLength(ORDER_COUNT);
    expect(rows[3]).toEqual({ id: 4n, region: 'East', amount: 40n, even: true });
    const xlsx = await fetch('xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.rowCount).toBe(ORDER_COUNT + 1);
    expect(sheet.getRow(5).values).toEqual([undefined, 4, 'East', 40, true]);
    const json = (await fetch('json')).json<{ rows: unknown[]; truncated: boolean }>();
    expect(json.rows).toHaveLength(ORDER_COUNT);
    expect(json.truncated).toBe(false);
    const ndjson = (await fetch('ndjson')).body.trim().split('\n');
    expect(JSON.parse(ndjson[3]!)).toEqual({ id: 4, region: 'East', amount: 40, even: true });
  });

  it('answers identical requests, sent at once, with one job', async () => {
    // A job that lasts a second, so that every request arrives while it is active.
    const asset = await world.asset(world.postgresConnection, {
      sql: 'select pg_sleep(1)::text as slept, :region as region',
      parameters: [regionParameter],
    });
    const body = { dataAssetUid: asset.uid, parameters: { region: 'North' }, format: 'ndjson' };
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => world.reader.call('POST', '/api/Download', body)),
    );
    const ids = new Set(responses.map((r) => r.json<{ id: string }>().id));
    expect(responses.map((r) => r.statusCode)).toEqual(Array(6).fill(202));
    expect(ids.size).toBe(1);
    const rows = await context()
      .app.db.selectFrom('download_jobs')
      .select('id')
      .where('data_source_uid', '=', asset.uid)
      .execute();
    expect(rows).toHaveLength(1);
    await waitFor(world.reader, [...ids][0]!);
  });

  it("answers 404 for another user's job and for an unknown one, alike", async () => {
    const asset = await byRegion(world.sqliteConnection);
    const job = await waitFor(
      world.reader,
      (await startJob(world.reader, { dataAssetUid: asset.uid, parameters: { region: 'South' }, format: 'csv' })).id,
    );
    for (const path of [`/api/Download/${job.id}/Status`, `/api/Download/${job.id}/File`]) {
      const other = await world.stranger.call('GET', path);
      expect(other.statusCode).toBe(404);
      expect(other.json()).toMatchObject({ title: `Download with id ${job.id} does not exist` });
    }
    const unknown = await world.reader.call('GET', '/api/Download/no-such-job/Status');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ title: 'Download with id no-such-job does not exist' });
    expect((await world.stranger.call('GET', '/api/Download')).json()).toMatchObject({ items: [], totalCount: 0 });
    const mine = (await world.reader.call('GET', '/api/Download?pageSize=2')).json<{
      items: { id: string }[];
      totalCount: number;
    }>();
    expect(mine.items[0]!.id).toBe(job.id);
    expect(mine.items).toHaveLength(2);
    expect(mine.totalCount).toBeGreaterThan(2);
  });

  it('refuses a bad format, bad values and a hidden asset before any job exists', async () => {
    const asset = await world.asset(world.sqliteConnection, {
      sql: 'select * from orders where id = :id',
      parameters: [{ name: 'id', type: 'integer', required: true }],
    });
    const format = await world.reader.call('POST', '/api/Download', {
      dataAssetUid: asset.uid,
      parameters: { id: 1 },
      format: 'pdf',
    });
    expect(format.statusCode).toBe(400);
    expect(format.json()).toMatchObject({ status: 400, errors: { format: ['Unsupported type pdf'] } });
    // Parquet is for downloads only: the calling layer does not offer it.
    const call = await world.reader.call('GET', `/data/v1/${asset.uid}?id=1&format=parquet`);
    expect(call.statusCode).toBe(400);
    expect(call.json()).toMatchObject({ errors: { format: ['Unsupported type parquet'] } });
    const values = await world.reader.call('POST', '/api/Download', {
      dataAssetUid: asset.uid,
      parameters: { id: 'abc' },
      format: 'csv',
    });
    expect(values.statusCode).toBe(400);
    expect(values.json()).toMatchObject({ status: 400, errors: { id: ['id must be an integer'] } });
    const hidden = await world.stranger.call('POST', '/api/Download', {
      dataAssetUid: asset.uid,
      parameters: { id: 1 },
      format: 'csv',
    });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toMatchObject({ title: `Data asset with id ${asset.uid} does not exist` });
    const rows = await context()
      .app.db.selectFrom('download_jobs')
      .select('id')
      .where('data_source_uid', '=', asset.uid)
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('shows rows so far while Running', async () => {
    const asset = await world.asset(world.postgresConnection, {
      // A pause every 100,000 rows (1.5 s in all): progress (written each second) shows however fast the machine.
      sql:
        'select g, md5(g::text) as h from generate_series(1, 600000) g, ' +
        'lateral (select case when g % 100000 = 0 then pg_sleep(0.25) end as pause) p',
    });
    const started = await startJob(world.reader, { dataAssetUid: asset.uid, format: 'ndjson' });
    const running = await waitFor(world.reader, started.id, (job) => job.state !== 'Queued' && job.rows > 0);
    expect(running.state).toBe('Running');
    expect(running.startedAt).not.toBeNull();
    const done = await waitFor(world.reader, started.id, undefined, 60_000);
    expect(done).toMatchObject({ state: 'Completed', rows: 600_000 });
    expect(done.rows).toBeGreaterThan(running.rows);
  }, 90_000);

  it('marks an expired job Expired and removes its file', async () => {
    const t = context();
    const asset = await byRegion(world.sqliteConnection);
    const job = await waitFor(
      world.reader,
      (await startJob(world.reader, { dataAssetUid: asset.uid, parameters: { region: 'East' }, format: 'json' })).id,
    );
    const path = join(t.config.downloads.dir, `${job.id}.json`);
    expect(existsSync(path)).toBe(true);
    // Retention runs out: the job's time is moved back rather than the test waiting a day.
    await t.app.db
      .updateTable('download_jobs')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', job.id)
      .execute();
    await t.app.downloads.sweep();
    expect(await waitFor(world.reader, job.id)).toMatchObject({ state: 'Expired', link: null });
    expect(existsSync(path)).toBe(false);
    expect((await world.reader.call('GET', `/api/Download/${job.id}/File`)).statusCode).toBe(404);
    expect(readdirSync(t.config.downloads.dir).some((name) => name.startsWith(job.id))).toBe(false);
  });
});
