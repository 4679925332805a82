import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/support/app.ts';
import { buildCollection, buildPerson, type Person } from '../../../test/support/builders.ts';
import { startInstances, type Instances } from '../../../test/support/instances.ts';
import { isPostgresAvailable } from '../../../test/support/stores.ts';
import { startTcpProxy, type TcpProxy } from '../../../test/support/tcp-proxy.ts';
import { buildAsset, buildConnection, createSqliteSource } from '../../../test/support/orders-source.ts';
import { startJob, waitFor } from './test-helpers.ts';

// Downloads on BullMQ (REDIS_URL set) against the machine's PostgreSQL and Redis, under a queue prefix of this run:
// a web instance (DATALAB_ROLE=web) takes the request, a worker instance (DATALAB_ROLE=worker, sharing only the
// store, Redis and the download folder) runs it, and the file is fetched from the web instance. Redis reached
// through a TCP relay this test cuts: new downloads answer 503 and leave no row, and work again once it is back.

const REDIS_PORT = 6379;

async function isRedisAvailable(): Promise<boolean> {
  const redis = new Redis({
    host: '127.0.0.1',
    port: REDIS_PORT,
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch (error) {
    if (process.env['CI'] === 'true') throw new Error(`Redis is required in CI: ${String(error)}`, { cause: error });
    process.stderr.write(
      '\n*** WARNING: Redis is not reachable at 127.0.0.1:6379; the BullMQ download suite is SKIPPED. ***\n\n',
    );
    return false;
  } finally {
    redis.disconnect();
  }
}

const available = (await isPostgresAvailable()) && (await isRedisAvailable());

(available ? describe : describe.skip)('downloads on BullMQ: web and worker roles [postgres + redis]', () => {
  let proxy: TcpProxy;
  let instances: Instances;
  let web: TestApp;
  let reader: Person;
  let assetUid: string;

  beforeAll(async () => {
    proxy = await startTcpProxy({ port: REDIS_PORT });
    instances = await startInstances(0, {
      REDIS_URL: `redis://${proxy.address}`,
      DOWNLOAD_QUEUE_PREFIX: `datalab-test-${randomUUID()}`,
      DEMO: 'false',
    });
    web = await instances.add({ DATALAB_ROLE: 'web' });
    await instances.add({ DATALAB_ROLE: 'worker' });
    const owner = await buildPerson(web);
    reader = await buildPerson(web);
    const collection = await buildCollection(web, owner, { roles: [[reader, 'Reader']] });
    const connection = await buildConnection(owner, collection, { driver: 'sqlite', path: createSqliteSource(web) });
    assetUid = (await buildAsset(owner, collection, connection, { sql: 'select id, region from orders order by id' }))
      .uid;
  });
  afterAll(async () => {
    await instances?.close();
    await proxy?.close();
  });

  it('runs a job started on the web instance in the worker, and serves its file from the web instance', async () => {
    const started = await startJob(reader, { dataAssetUid: assetUid, format: 'csv' });
    const job = await waitFor(reader, started.id);
    expect(job).toMatchObject({ state: 'Completed', rows: 20 });
    const file = await reader.call('GET', job.link!);
    const call = await reader.call('GET', `/data/v1/${assetUid}?format=csv`);
    expect(file.body).toBe(call.body);
    // The web instance ran nothing itself: its queue has no worker (DATALAB_ROLE=web).
    expect(web.config.role).toBe('web');
  });

  it('answers 503 with no row left while Redis is unreachable, and works again when it is back', async () => {
    await proxy.cut();
    try {
      const refused = await reader.call('POST', '/api/Download', { dataAssetUid: assetUid, format: 'ndjson' });
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({
        title: 'Downloads are unavailable right now: the job queue cannot be reached. Try again shortly.',
      });
      const rows = await web.app.db.selectFrom('download_jobs').select('id').where('format', '=', 'ndjson').execute();
      expect(rows).toEqual([]);
      // The rest of the API stays up.
      expect((await reader.call('GET', '/api/Download')).statusCode).toBe(200);
    } finally {
      await proxy.restore();
    }
    // ioredis reconnects by itself (backing off); no restart is needed.
    const deadline = Date.now() + 20_000;
    let status = 0;
    let body = '';
    while (Date.now() < deadline) {
      const response = await reader.call('POST', '/api/Download', { dataAssetUid: assetUid, format: 'ndjson' });
      status = response.statusCode;
      body = response.body;
      if (status === 202) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(202);
    const job = await waitFor(reader, JSON.parse(body).id as string);
    expect(job).toMatchObject({ state: 'Completed', rows: 20 });
  }, 60_000);
});
