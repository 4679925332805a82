import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/support/app.ts';
import { buildPerson, type Person } from '../test/support/builders.ts';
import { type Instances, startInstances } from '../test/support/instances.ts';
import { isPostgresAvailable } from '../test/support/stores.ts';
import { buildCacheWorld } from './modules/caching/test-world.ts';
import { createToken } from './modules/tokens/test-world.ts';

// product §12's scale-out, over real ports: two web instances (DATALAB_ROLE=web) and one worker (DATALAB_ROLE=worker)
// on one fresh PostgreSQL store, the machine's Redis and one download folder — nothing else shared. Each instance
// builds the whole app from its own configuration; a caller may land on either, as behind a load balancer.
// Shown here: a cache purge on one is seen by the other; the rate limit is one budget; a download started on one is
// run by the worker and fetched from the other; a token revoked on one is refused by the other at once.

const postgres = await isPostgresAvailable();
const LIMIT = 6;

interface Web {
  url: string;
  app: TestApp;
}

async function listen(app: TestApp): Promise<Web> {
  await app.app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${address.port}`, app };
}

async function call(web: Web, bearer: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${web.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${bearer}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: <T>() => JSON.parse(text) as T };
}

(postgres ? describe : describe.skip)('two web instances and a worker on PostgreSQL and Redis [postgres]', () => {
  let instances: Instances;
  let a: Web;
  let b: Web;
  let owner: Person;
  let admin: Person;

  beforeAll(async () => {
    instances = await startInstances(0, {
      REDIS_URL: 'redis://127.0.0.1:6379',
      DOWNLOAD_QUEUE_PREFIX: `datalab-scale-${randomUUID()}`,
      RATE_LIMIT_PER_MINUTE: String(LIMIT),
      DEMO: 'false',
    });
    a = await listen(await instances.add({ DATALAB_ROLE: 'web' }));
    b = await listen(await instances.add({ DATALAB_ROLE: 'web' }));
    await instances.add({ DATALAB_ROLE: 'worker' });
    owner = await buildPerson(a.app);
    admin = await buildPerson(a.app, { canManageUsers: true });
  });

  afterAll(async () => {
    await instances?.close();
  });

  it('serves a cached result on both, and a purge on one empties it for the other', async () => {
    const asset = await (await buildCacheWorld(a.app, owner)).cachedAsset({ withParameter: false });
    expect((await call(a, owner.token, 'GET', `/data/v1/${asset.uid}`)).json()).toMatchObject({ cached: false });
    expect((await call(b, owner.token, 'GET', `/data/v1/${asset.uid}`)).json()).toMatchObject({ cached: true });
    const keys = await call(b, admin.token, 'GET', '/api/Caching/GetCacheKeys');
    expect(keys.json<{ totalCount: number }>().totalCount).toBe(1);
    expect((await call(a, admin.token, 'POST', '/api/Caching/PurgeCache', {})).json()).toEqual({ removed: 1 });
    expect((await call(b, admin.token, 'GET', '/api/Caching/GetCacheKeys')).json()).toMatchObject({ totalCount: 0 });
    expect((await call(b, owner.token, 'GET', `/data/v1/${asset.uid}`)).json()).toMatchObject({ cached: false });
  });

  it('counts one budget for a caller across both instances', async () => {
    const caller = await buildPerson(a.app);
    const asset = await (await buildCacheWorld(a.app, caller)).cachedAsset({ withParameter: false });
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i += 1) {
      statuses.push((await call(i % 2 === 0 ? a : b, caller.token, 'GET', `/data/v1/${asset.uid}`)).status);
    }
    expect(statuses).toEqual(Array.from({ length: LIMIT }, () => 200));
    const refused = await call(b, caller.token, 'GET', `/data/v1/${asset.uid}`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('runs a download started on one instance in the worker, and serves its file from the other', async () => {
    const downloader = await buildPerson(a.app);
    const asset = await (await buildCacheWorld(a.app, downloader)).cachedAsset({ withParameter: false });
    const started = await call(a, downloader.token, 'POST', '/api/Download', {
      dataAssetUid: asset.uid,
      format: 'csv',
    });
    expect(started.status).toBe(202);
    const { id } = started.json<{ id: string }>();
    let job = started.json<{ state: string; rows: number; link: string | null }>();
    const deadline = Date.now() + 30_000;
    while (!['Completed', 'Failed', 'Expired'].includes(job.state) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = (await call(b, downloader.token, 'GET', `/api/Download/${id}/Status`)).json();
    }
    expect(job).toMatchObject({ state: 'Completed', rows: 10, link: `/api/Download/${id}/File` });
    const file = await call(b, downloader.token, 'GET', job.link!);
    expect(file.status).toBe(200);
    expect(file.text).toBe((await call(a, downloader.token, 'GET', `/data/v1/${asset.uid}?format=csv`)).text);
    // Neither web instance processes jobs (DATALAB_ROLE=web): the worker did.
    expect([a.app.config.role, b.app.config.role]).toEqual(['web', 'web']);
  });

  it('refuses a token on the other instance as soon as it is revoked on one', async () => {
    const holder = await buildPerson(a.app);
    const asset = await (await buildCacheWorld(a.app, holder)).cachedAsset({ withParameter: false });
    const collection = (
      await call(a, holder.token, 'GET', `/api/DataSourceCollection/GetByDataAssetId/${asset.id}`)
    ).json<{ uid: string }>().uid;
    const token = await createToken(holder, { roles: [{ collectionUid: collection, role: 'Reader' }] });
    expect((await call(b, token.secret, 'GET', `/data/v1/${asset.uid}`)).status).toBe(200);
    expect((await call(a, holder.token, 'PUT', `/api/Token/${token.id}/Revoke`)).status).toBe(200);
    expect((await call(b, token.secret, 'GET', `/data/v1/${asset.uid}`)).status).toBe(401);
  });
});
