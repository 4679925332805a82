import type { DownloadJob } from '@datalab/contract/api/downloads';
import ExcelJS from 'exceljs';
import { parquetMetadata } from 'hyparquet';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCollection, buildPerson, type Person } from '../../../test/support/builders.ts';
import {
  buildAsset,
  buildConnection,
  createPostgresSource,
  createSqliteSource,
  type CollectionRef,
} from '../../../test/support/orders-source.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { startJob, waitFor } from './test-helpers.ts';

// Download jobs that stop at the export limit (MAX_EXPORT_ROWS, 5 here) say so in their status (`truncated: true`,
// the rows written) and in their file, in every format; a result exactly at the limit says neither.

const LIMIT = 5;
const NOTE = `# Truncated: the result has more rows than the export limit of ${LIMIT}; this file holds the first ${LIMIT}`;

describeApp(
  'download jobs at the export limit',
  (context) => {
    let reader: Person;
    let assets: Record<'postgres' | 'sqlite', { long: string; exact: string }>;
    let dropPostgres: () => Promise<void> = async () => undefined;

    beforeAll(async () => {
      const t = context();
      const owner = await buildPerson(t);
      reader = await buildPerson(t);
      const collection: CollectionRef = await buildCollection(t, owner, { roles: [[reader, 'Reader']] });
      const postgres = await createPostgresSource();
      dropPostgres = postgres.drop;
      const pair = async (connection: number) => ({
        long: (await buildAsset(owner, collection, connection, { sql: 'select id, region from orders order by id' }))
          .uid,
        exact: (
          await buildAsset(owner, collection, connection, {
            sql: `select id, region from orders where id <= ${LIMIT} order by id`,
          })
        ).uid,
      });
      assets = {
        postgres: await pair(await buildConnection(owner, collection, { driver: 'postgres', url: postgres.url })),
        sqlite: await pair(await buildConnection(owner, collection, { driver: 'sqlite', path: createSqliteSource(t) })),
      };
    });
    afterAll(async () => dropPostgres());

    const download = async (uid: string, format: string) => {
      const job = await waitFor(reader, (await startJob(reader, { dataAssetUid: uid, format })).id);
      expect(job.state, `${format}: ${job.message}`).toBe('Completed');
      return { job, file: await reader.call('GET', job.link!) };
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
