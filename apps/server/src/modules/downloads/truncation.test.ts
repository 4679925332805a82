import type { DownloadJob } from '@datalab/contract/api/downloads';
import ExcelJS from 'exceljs';
import { parquetMetadata } from 'hyparquet';
import { beforeAll, expect, it } from 'vitest';
import { buildLimitAssets, exportLimitNote, type LimitAssets } from '../../../test/support/export-limit.ts';
import { useOrdersWorld } from '../../../test/support/orders-world.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { startJob, waitFor } from './test-helpers.ts';

// Download jobs that stop at the export limit (MAX_EXPORT_ROWS, 5 here) say so in their status (`truncated: true`,
// the rows written) and in their file, in every format; a result exactly at the limit says neither.

const LIMIT = 5;
const NOTE = exportLimitNote(LIMIT);

describeApp(
  'download jobs at the export limit',
  (context) => {
    const world = useOrdersWorld(context);
    let assets: Record<'postgres' | 'sqlite', LimitAssets>;

    beforeAll(async () => {
      assets = await buildLimitAssets(world, LIMIT);
    });

    const download = async (uid: string, format: string) => {
      const job = await waitFor(world.reader, (await startJob(world.reader, { dataAssetUid: uid, format })).id);
      expect(job.state, `${format}: ${job.message}`).toBe('Completed');
      return { job, file: await world.reader.call('GET', job.link!) };
    };
    const expectCut = (job: DownloadJob, truncated: boolean) =>
      expect(job, job.format).toMatchObject({ rows: LIMIT, truncated });

    it('flags a cut CSV job and ends its file with the marked record (COPY and row writer alike)', async () => {
      for (const source of ['postgres', 'sqlite'] as const) {
        const cut = await download(assets[source].long, 'csv');
        expectCut(cut.job, true);
        expect(cut.file.body.endsWith(`\r\n${NOTE},\r\n`), source).toBe(true);
        const whole = await download(assets[source].exact, 'csv');
        expectCut(whole.job, false);
        expect(whole.file.body, source).not.toContain('Truncated');
      }
    });

    it('flags cut NDJSON, XLSX, Parquet and JSON jobs, each file marked its own way', async () => {
      const ndjson = await download(assets.postgres.long, 'ndjson');
      expectCut(ndjson.job, true);
      expect(JSON.parse(ndjson.file.body.trimEnd().split('\n').at(-1)!)).toEqual({
        _truncated: true,
        rows: LIMIT,
        limit: LIMIT,
      });
      const xlsx = await download(assets.postgres.long, 'xlsx');
      expectCut(xlsx.job, true);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(xlsx.file.rawPayload as unknown as ArrayBuffer);
      expect(workbook.worksheets[0]!.getRow(LIMIT + 2).getCell(1).value).toBe(NOTE);
      const parquet = await download(assets.postgres.long, 'parquet');
      expectCut(parquet.job, true);
      const bytes = new Uint8Array(parquet.file.rawPayload).buffer;
      expect(parquetMetadata(bytes).key_value_metadata).toContainEqual({ key: 'datalab.truncated', value: 'true' });
      const json = await download(assets.postgres.long, 'json');
      expectCut(json.job, true);
      expect(json.file.json()).toMatchObject({ truncated: true });
      for (const format of ['ndjson', 'xlsx', 'parquet', 'json']) {
        expectCut((await download(assets.postgres.exact, format)).job, false);
      }
    });
  },
  { env: { MAX_EXPORT_ROWS: String(LIMIT) } },
);
