import { request as httpRequest } from 'node:http';
import ExcelJS from 'exceljs';
import { beforeAll, expect, it } from 'vitest';
import { buildLimitAssets, exportLimitNote, type LimitAssets } from '../../../test/support/export-limit.ts';
import { useOrdersWorld } from '../../../test/support/orders-world.ts';
import { describeApp } from '../../../test/support/suite.ts';

// Exports of the calling layer that stop at the export limit (MAX_EXPORT_ROWS, 5 here) say so: a marked last line
// (CSV, NDJSON), a note row (XLSX), and a `Data-Lab-Truncated` trailer for a client that sent `TE: trailers`.
// A result exactly at the limit is whole, and carries none of it.

const LIMIT = 5;
const NOTE = exportLimitNote(LIMIT);

describeApp(
  'calling layer exports at the export limit',
  (context) => {
    const world = useOrdersWorld(context);
    let assets: Record<'postgres' | 'sqlite', LimitAssets>;

    beforeAll(async () => {
      assets = await buildLimitAssets(world, LIMIT);
    });

    const exportOf = (uid: string, format: string, te?: string) =>
      context().app.inject({
        method: 'GET',
        url: `/data/v1/${uid}?format=${format}`,
        headers: { authorization: `Bearer ${world.reader.token}`, ...(te ? { te } : {}) },
      });

    it('ends a cut CSV with the marked record (COPY and row writer alike), and a whole one without', async () => {
      for (const source of ['postgres', 'sqlite'] as const) {
        const cut = await exportOf(assets[source].long, 'csv');
        expect(cut.statusCode).toBe(200);
        const lines = cut.body.split('\r\n');
        expect(lines, source).toHaveLength(1 + LIMIT + 1 + 1);
        expect(lines.slice(-2), source).toEqual([`${NOTE},`, '']);
        const whole = await exportOf(assets[source].exact, 'csv');
        expect(whole.body.split('\r\n'), source).toHaveLength(1 + LIMIT + 1);
        expect(whole.body, source).not.toContain('Truncated');
      }
    });

    it('ends a cut NDJSON with the marked line, and a whole one without', async () => {
      const cut = (await exportOf(assets.postgres.long, 'ndjson')).body.trimEnd().split('\n');
      expect(cut).toHaveLength(LIMIT + 1);
      expect(JSON.parse(cut.at(-1)!)).toEqual({ _truncated: true, rows: LIMIT, limit: LIMIT });
      const whole = (await exportOf(assets.postgres.exact, 'ndjson')).body.trimEnd().split('\n');
      expect(whole.map((line) => Object.keys(JSON.parse(line) as object))).toEqual(Array(LIMIT).fill(['id', 'region']));
    });

    it('ends a cut XLSX sheet with a note row, and a whole one without', async () => {
      const sheetOf = async (uid: string) => {
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load((await exportOf(uid, 'xlsx')).rawPayload as unknown as ArrayBuffer);
        return workbook.worksheets[0]!;
      };
      const cut = await sheetOf(assets.sqlite.long);
      expect(cut.rowCount).toBe(1 + LIMIT + 1);
      expect(cut.getRow(LIMIT + 2).getCell(1).value).toBe(NOTE);
      expect((await sheetOf(assets.sqlite.exact)).rowCount).toBe(1 + LIMIT);
    });

    it('sends the Data-Lab-Truncated trailer to a client that accepts trailers, and only to it', async () => {
      for (const format of ['csv', 'ndjson', 'xlsx']) {
        const cut = await exportOf(assets.postgres.long, format, 'trailers');
        expect(String(cut.headers.trailer).toLowerCase(), format).toBe('data-lab-truncated');
        expect(cut.trailers, format).toEqual({ 'data-lab-truncated': 'true' });
        const whole = await exportOf(assets.postgres.exact, format, 'trailers');
        expect(whole.trailers, format).toEqual({ 'data-lab-truncated': 'false' });
        const plain = await exportOf(assets.postgres.long, format);
        expect(plain.headers.trailer, format).toBeUndefined();
        expect(plain.trailers, format).toEqual({});
      }
    });

    it('puts the trailer on the wire after the chunked body', async () => {
      const address = new URL(await context().app.listen({ port: 0, host: '127.0.0.1' }));
      const reply = await new Promise<{ trailers: NodeJS.Dict<string>; encoding?: string; body: string }>(
        (resolve, reject) => {
          const sent = httpRequest(
            {
              host: address.hostname,
              port: address.port,
              path: `/data/v1/${assets.postgres.long}?format=csv`,
              headers: { authorization: `Bearer ${world.reader.token}`, te: 'trailers' },
            },
            (response) => {
              let body = '';
              response.setEncoding('utf8');
              response.on('data', (chunk: string) => (body += chunk));
              response.on('end', () =>
                resolve({
                  trailers: response.trailers,
                  body,
                  ...(response.headers['transfer-encoding'] && { encoding: response.headers['transfer-encoding'] }),
                }),
              );
            },
          );
          sent.on('error', reject);
          sent.end();
        },
      );
      expect(reply.encoding).toBe('chunked');
      expect(reply.trailers).toEqual({ 'data-lab-truncated': 'true' });
      expect(reply.body.endsWith(`${NOTE},\r\n`)).toBe(true);
    });
  },
  { env: { MAX_EXPORT_ROWS: String(LIMIT) } },
);
