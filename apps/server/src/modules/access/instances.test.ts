import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/support/app.ts';
import { buildCollection, buildGroup, buildPerson } from '../../../test/support/builders.ts';
import { type Instances, startInstances } from '../../../test/support/instances.ts';
import { isPostgresAvailable } from '../../../test/support/stores.ts';

// Two server instances on one PostgreSQL store, as behind a load balancer: a change made through
// one holds on the very next request through the other, although each caches the access model.

const postgres = await isPostgresAvailable();

(postgres ? describe : describe.skip)('several instances share the access model [postgres]', () => {
  let instances: Instances;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    instances = await startInstances(2, {});
    [first, second] = instances.apps as [TestApp, TestApp];
  });

  afterAll(async () => {
    await instances?.close();
  });

  it('sees a membership granted and withdrawn on the other instance at the next request', async () => {
    const admin = await buildPerson(first, { canManageUsers: true });
    const owner = await buildPerson(first);
    const member = await buildPerson(first);
    const onSecond = await buildPerson(second, { sub: `instance-member-${member.id}` });
    void onSecond;
    const collection = await buildCollection(first, owner);
    const group = await buildGroup(first, admin);
    await owner.call('PUT', `/api/DataRole/${group.id}/UserGroupDataRoles`, {
      collectionUid: collection.uid,
      role: 'Reader',
    });

    const seenOnSecond = async () => {
      const response = await second.app.inject({
        method: 'GET',
        url: `/api/DataSourceCollection/GetByUid/${collection.uid}`,
        headers: { authorization: `Bearer ${member.token}` },
      });
      return response.statusCode;
    };
    expect(await seenOnSecond()).toBe(404);
    await admin.call('POST', `/api/UserGroup/${group.id}/User/${member.id}`);
    expect(await seenOnSecond()).toBe(200);
    await admin.call('DELETE', `/api/UserGroup/${group.id}/User/${member.id}`);
    expect(await seenOnSecond()).toBe(404);
  });
});
