import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/support/app.ts';
import { buildGroup, buildPerson } from '../../../test/support/builders.ts';
import { type Instances, startInstances } from '../../../test/support/instances.ts';
import { isPostgresAvailable } from '../../../test/support/stores.ts';
import { buildPlace, createToken, withToken } from './test-world.ts';

// Two server instances on one PostgreSQL store and one Redis, as behind a load balancer: a token made on one works
// on the other; its revocation, and its owner's lost group membership, hold at the very next call on the other;
// and the calling layer's rate limit is one budget across both.

const postgres = await isPostgresAvailable();
const REDIS_URL = 'redis://127.0.0.1:6379';
const LIMIT = 4;

(postgres ? describe : describe.skip)('Data Lab tokens on several instances [postgres]', () => {
  let instances: Instances;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    instances = await startInstances(2, { REDIS_URL, RATE_LIMIT_PER_MINUTE: String(LIMIT), DEMO_SHOP_ORDERS: '200' });
    [first, second] = instances.apps as [TestApp, TestApp];
  });

  afterAll(async () => {
    await instances?.close();
  });

  it('revokes and narrows at the next call on the other instance', async () => {
    const admin = await buildPerson(first, { canManageUsers: true });
    const owner = await buildPerson(first);
    const member = await buildPerson(first);
    const place = await buildPlace(first, owner);
    const group = await buildGroup(first, admin, { members: [member] });
    await owner.call('PUT', `/api/DataRole/${group.id}/UserGroupDataRoles`, {
      collectionUid: place.uid,
      role: 'Reader',
    });
    const token = await createToken(member, { roles: [{ collectionUid: place.uid, role: 'Reader' }] });
    const spare = await createToken(owner, { roles: [{ collectionUid: place.uid, role: 'Reader' }] });
    const onSecond = (secret: string) => withToken(second, secret, 'GET', `/data/v1/${place.assetUid}`);

    expect((await onSecond(token.secret)).statusCode).toBe(200);
    await admin.call('DELETE', `/api/UserGroup/${group.id}/User/${member.id}`);
    expect((await onSecond(token.secret)).statusCode).toBe(404);

    expect((await onSecond(spare.secret)).statusCode).toBe(200);
    expect((await owner.call('PUT', `/api/Token/${spare.id}/Revoke`)).statusCode).toBe(200);
    expect((await onSecond(spare.secret)).statusCode).toBe(401);
  });

  it('counts a caller’s calls on both instances in one budget (Redis)', async () => {
    const owner = await buildPerson(first);
    const place = await buildPlace(first, owner);
    const token = await createToken(owner, { roles: [{ collectionUid: place.uid, role: 'Reader' }] });
    // Counters outlive a run in Redis, but under this store's own namespace (lib/deployment.ts): they start empty.
    const url = `/data/v1/${place.assetUid}`;
    const statuses = [];
    for (let i = 0; i < LIMIT; i += 1) {
      statuses.push((await withToken(i % 2 === 0 ? first : second, token.secret, 'GET', url)).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200]);
    const refused = await withToken(first, token.secret, 'GET', url);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });
});
