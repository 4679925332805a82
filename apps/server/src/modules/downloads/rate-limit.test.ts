import { beforeAll, expect, it } from 'vitest';
import { buildCollection, buildPerson, type Person } from '../../../test/support/builders.ts';
import { describeApp } from '../../../test/support/suite.ts';
import {
  buildAsset,
  buildConnection,
  createSqliteSource,
  type CollectionRef,
} from '../../../test/support/orders-source.ts';

// Starting a download spends the caller's call budget (RATE_LIMIT_PER_MINUTE) like a call does: a loop of starts
// with different values (which dedupe does not merge) meets a 429 with product §8's text and Retry-After, and no job.

const LIMIT = 2;

describeApp(
  'download starts under the rate limit',
  (context) => {
    let reader: Person;
    let collection: CollectionRef;
    let assetUid: string;

    beforeAll(async () => {
      const t = context();
      const owner = await buildPerson(t);
      reader = await buildPerson(t);
      collection = await buildCollection(t, owner, { roles: [[reader, 'Reader']] });
      const connection = await buildConnection(owner, collection, { driver: 'sqlite', path: createSqliteSource(t) });
      const asset = await buildAsset(owner, collection, connection, {
        sql: 'select id, region from orders where region = :region order by id',
        parameters: [{ name: 'region', type: 'string', required: true }],
      });
      assetUid = asset.uid;
    });

    it('answers 429 once the budget is spent, and starts no job', async () => {
      const start = (region: string) =>
        reader.call('POST', '/api/Download', { dataAssetUid: assetUid, parameters: { region }, format: 'csv' });
      for (const region of ['East', 'West'].slice(0, LIMIT)) expect((await start(region)).statusCode).toBe(202);
      const refused = await start('North');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ title: 'The rate limit has been exceeded for this call.' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const mine = await reader.call('GET', '/api/Download?page=1&pageSize=20');
      expect(mine.json<{ totalCount: number }>().totalCount).toBe(LIMIT);
    });
  },
  { env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) } },
);
