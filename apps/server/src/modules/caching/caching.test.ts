import { beforeAll, expect, it } from 'vitest';
import { cacheValue, getCacheKeys } from '@datalab/contract/api/caching';
import { auditRecords, buildPerson, type Person } from '../../../test/support/builders.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { buildCacheWorld, type CacheWorld } from './test-world.ts';

// Cache management through HTTP: entries a call made, listed with their asset, size, age,
// time to live and hits; a value by type; removal and purge, each audited; bad input and a missing key.

const keysOf = (response: { json: () => unknown }) => getCacheKeys.response.parse(response.json());

describeApp('cache management', (context) => {
  let owner: Person;
  let admin: Person;
  let world: CacheWorld;

  beforeAll(async () => {
    const t = context();
    [owner, admin] = await Promise.all([buildPerson(t), buildPerson(t, { canManageUsers: true })]);
    world = await buildCacheWorld(t, owner);
  });

  const cachedAsset = (name: string) => world.cachedAsset({ name });

  it('lists the entry a call made, with its asset, size, age, time to live and hits, by type and page', async () => {
    const asset = await cachedAsset('Cached orders');
    expect((await owner.call('GET', `/data/v1/${asset.uid}?most=3`)).json()).toMatchObject({ cached: false });
    expect((await owner.call('GET', `/data/v1/${asset.uid}?most=3`)).json()).toMatchObject({ cached: true });
    await owner.call('GET', `/data/v1/${asset.uid}?most=4`);

    const listed = keysOf(await admin.call('GET', '/api/Caching/GetCacheKeys?type=results&pageSize=200'));
    const mine = listed.items.filter((item) => item.asset?.uid === asset.uid);
    expect(mine).toHaveLength(2);
    const [newest, older] = mine;
    expect(older).toMatchObject({ type: 'results', asset: { uid: asset.uid, name: 'Cached orders' }, hits: 1 });
    expect(newest?.hits).toBe(0);
    expect(older?.size).toBeGreaterThan(50);
    expect(older?.ttlMs).toBeGreaterThan(100_000);
    expect(older?.ttlMs).toBeLessThanOrEqual(120_000);
    expect(older?.ageMs).toBeGreaterThanOrEqual(0);
    expect(older?.ageMs).toBeLessThan(60_000);
    expect(listed.totalBytes).toBeGreaterThanOrEqual((older?.size ?? 0) + (newest?.size ?? 0));

    const metadata = keysOf(await admin.call('GET', '/api/Caching/GetCacheKeys?type=metadata'));
    expect(metadata.items).toEqual([]);
    const firstPage = keysOf(await admin.call('GET', '/api/Caching/GetCacheKeys?pageSize=1'));
    expect(firstPage.items).toHaveLength(1);
    expect(firstPage.totalCount).toBe(listed.totalCount);
  });

  it('shows a cached result as columns and rows; another type or a missing key is not found', async () => {
    const asset = await cachedAsset('Shown orders');
    await owner.call('GET', `/data/v1/${asset.uid}?most=2`);
    const listed = keysOf(await admin.call('GET', '/api/Caching/GetCacheKeys?pageSize=200'));
    const entry = listed.items.find((item) => item.asset?.uid === asset.uid);
    if (!entry) throw new Error('no entry');
    const query = (type: string, key = entry.key) => `type=${type}&key=${encodeURIComponent(key)}`;

    const shown = await admin.call('GET', `/api/Caching/GetCacheValueByType?${query('results')}`);
    expect(shown.statusCode).toBe(200);
    expect(cacheValue.parse(shown.json())).toEqual({
      type: 'results',
      key: entry.key,
      columns: [
        { name: 'id', type: expect.any(String) as string },
        { name: 'region', type: expect.any(String) as string },
      ],
      rows: [
        { id: 1, region: expect.any(String) as string },
        { id: 2, region: expect.any(String) as string },
      ],
      rowCount: 2,
      capped: false,
    });
    // Looking is not using: the hit count stays.
    const again = keysOf(await admin.call('GET', '/api/Caching/GetCacheKeys?pageSize=200'));
    expect(again.items.find((item) => item.key === entry.key)?.hits).toBe(0);

    const otherType = await admin.call('GET', `/api/Caching/GetCacheValueByType?${query('metadata')}`);
    expect(otherType.statusCode).toBe(404);
    const missing = await admin.call('GET', `/api/Caching/GetCacheValueByType?${query('results', 'results:0:0:x')}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ title: 'Cache entry with id results:0:0:x does not exist' });
    const badType = await admin.call('GET', `/api/Caching/GetCacheValueByType?${query('xml')}`);
    expect(badType.statusCode).toBe(400);
    expect(badType.json()).toMatchObject({ errors: { 'querystring.type': ['Unsupported type xml'] } });
  });

  it('removes one entry, audited, so the next call runs again; a second removal is not found', async () => {
    const t = context();
    const asset = await cachedAsset('Removed orders');
    await owner.call('GET', `/data/v1/${asset.uid}?most=5`);
    const entry = keysOf(await admin.call('GET', '/api/Caching/GetCacheKeys?pageSize=200')).items.find(
      (item) => item.asset?.uid === asset.uid,
    );
    if (!entry) throw new Error('no entry');
    const url = `/api/Caching/RemoveFromCache?key=${encodeURIComponent(entry.key)}`;

    const removed = await admin.call('POST', url);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ removed: 1 });
    expect((await owner.call('GET', `/data/v1/${asset.uid}?most=5`)).json()).toMatchObject({ cached: false });
    const [record] = (await auditRecords(t, 'remove')).filter(
      (r) => (r.details as { target?: { id?: string } }).target?.id === entry.key,
    );
    expect(record?.details).toMatchObject({
      actor: { id: admin.id },
      action: 'remove',
      target: { type: 'cache entry', id: entry.key },
      before: { type: 'results', size: entry.size },
    });

    await admin.call('POST', url); // the call above cached it again
    const gone = await admin.call('POST', url);
    expect(gone.statusCode).toBe(404);
    expect((await owner.call('POST', url)).statusCode).toBe(403);
  });

  it('purges one type or everything, answering how many went, audited', async () => {
    const t = context();
    const asset = await cachedAsset('Purged orders');
    await owner.call('GET', `/data/v1/${asset.uid}?most=6`);
    await owner.call('GET', `/data/v1/${asset.uid}?most=7`);
    const before = keysOf(await admin.call('GET', '/api/Caching/GetCacheKeys')).totalCount;
    expect(before).toBeGreaterThanOrEqual(2);

    const noMetadata = await admin.call('POST', '/api/Caching/PurgeCache', { type: 'metadata' });
    expect(noMetadata.json()).toEqual({ removed: 0 });
    expect(keysOf(await admin.call('GET', '/api/Caching/GetCacheKeys')).totalCount).toBe(before);

    const purged = await admin.call('POST', '/api/Caching/PurgeCache', {});
    expect(purged.statusCode).toBe(200);
    expect(purged.json()).toEqual({ removed: before });
    expect(keysOf(await admin.call('GET', '/api/Caching/GetCacheKeys')).totalCount).toBe(0);
    expect((await owner.call('GET', `/data/v1/${asset.uid}?most=6`)).json()).toMatchObject({ cached: false });

    const records = await auditRecords(t, 'purge');
    expect(records.at(-1)?.details).toMatchObject({
      actor: { id: admin.id },
      target: { type: 'cache', id: 'all' },
      after: { removed: before },
    });
    expect(records.at(-2)?.details).toMatchObject({ target: { id: 'metadata' }, after: { removed: 0 } });
    expect((await owner.call('POST', '/api/Caching/PurgeCache', {})).statusCode).toBe(403);
  });
});
