import { expect, it } from 'vitest';
import { problem } from '@datalab/contract/errors';
import { buildCollection, buildGroup, buildPerson, type Person } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';

// The rules that span rows: nobody raises their own EFFECTIVE role, and every collection keeps an
// Owner who is a person (a group nobody is in owns nothing), also when two changes race.

describeEachStore('access rules: self-raise and the last Owner', (ctx) => {
  const roleOf = async (person: Person, uid: string) =>
    (await person.call('GET', `/api/DataSourceCollection/GetByUid/${uid}`)).json<{ myRole: string | null }>().myRole;
  const ownersOf = async (uid: string) => {
    const db = ctx().app.db;
    return db
      .selectFrom('collection_user_roles')
      .innerJoin('collections', 'collections.id', 'collection_user_roles.collection_id')
      .select('user_id')
      .where('collections.uid', '=', uid)
      .where('role', '=', 'Owner')
      .execute();
  };

  it('refuses an administrator granting Owner to a group they are in', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const owner = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), owner);
    const group = await buildGroup(ctx(), admin, { members: [admin] });
    const response = await admin.call('PUT', `/api/DataRole/${group.id}/UserGroupDataRoles`, {
      collectionUid: collection.uid,
      role: 'Owner',
    });
    expect(response.statusCode).toBe(403);
    expect(await roleOf(admin, collection.uid)).toBeNull();
  });

  it('refuses an administrator joining, or nesting their way into, a group that holds a role', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const owner = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), owner);
    const owners = await buildGroup(ctx(), admin);
    await owner.call('PUT', `/api/DataRole/${owners.id}/UserGroupDataRoles`, {
      collectionUid: collection.uid,
      role: 'Owner',
    });
    expect((await admin.call('POST', `/api/UserGroup/${owners.id}/User/${admin.id}`)).statusCode).toBe(403);
    const mine = await buildGroup(ctx(), admin, { members: [admin] });
    expect((await admin.call('POST', `/api/UserGroup/${owners.id}/UserGroup/${mine.id}`)).statusCode).toBe(403);
    expect(await roleOf(admin, collection.uid)).toBeNull();
    // Others may still be added and nested.
    const colleague = await buildPerson(ctx());
    expect((await admin.call('POST', `/api/UserGroup/${owners.id}/User/${colleague.id}`)).statusCode).toBe(200);
  });

  it('lets an Owner grant their own group a role when that raises nothing of theirs', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const owner = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), owner);
    const team = await buildGroup(ctx(), admin, { members: [owner] });
    await owner.call('PUT', `/api/DataRole/${team.id}/UserGroupDataRoles`, {
      collectionUid: collection.uid,
      role: 'Reader',
    });
    // Already Owner directly: granting Owner to their own group raises nothing and is allowed.
    const same = await owner.call('PUT', `/api/DataRole/${team.id}/UserGroupDataRoles`, {
      collectionUid: collection.uid,
      role: 'Owner',
    });
    expect(same.statusCode).toBe(200);
  });

  it('does not count a group nobody is in as an Owner', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const owner = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), owner);
    const empty = await buildGroup(ctx(), admin);
    await owner.call('PUT', `/api/DataRole/${empty.id}/UserGroupDataRoles`, {
      collectionUid: collection.uid,
      role: 'Owner',
    });
    const response = await owner.call('PUT', `/api/DataRole/${owner.id}/UserDataRoles`, {
      collectionUid: collection.uid,
      role: 'Reader',
    });
    expect(response.statusCode).toBe(400);
    expect(problem.parse(response.json()).title).toBe('At least one Owner is required');
    expect(await roleOf(owner, collection.uid)).toBe('Owner');
  });

  it('keeps the Owner when the only owning group would be deleted, emptied or cut off', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const founder = await buildPerson(ctx());
    const member = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), founder);
    const outer = await buildGroup(ctx(), admin);
    const inner = await buildGroup(ctx(), admin, { members: [member] });
    await admin.call('POST', `/api/UserGroup/${outer.id}/UserGroup/${inner.id}`);
    await founder.call('PUT', `/api/DataRole/${outer.id}/UserGroupDataRoles`, {
      collectionUid: collection.uid,
      role: 'Owner',
    });
    expect(
      (
        await founder.call('PUT', `/api/DataRole/${founder.id}/UserDataRoles`, {
          collectionUid: collection.uid,
          role: null,
        })
      ).statusCode,
    ).toBe(200);
    expect(await roleOf(member, collection.uid)).toBe('Owner');

    for (const [method, url] of [
      ['DELETE', `/api/UserGroup/${inner.id}/User/${member.id}`],
      ['DELETE', `/api/UserGroup/${outer.id}/UserGroup/${inner.id}`],
      ['DELETE', `/api/UserGroup/${inner.id}`],
      ['DELETE', `/api/UserGroup/${outer.id}`],
    ] as const) {
      const response = await admin.call(method, url);
      expect([url, response.statusCode]).toEqual([url, 400]);
      expect(problem.parse(response.json()).title).toBe('At least one Owner is required');
    }
    expect(await roleOf(member, collection.uid)).toBe('Owner');
  });

  it('leaves one Owner when the last two step down at the same moment', async () => {
    const first = await buildPerson(ctx());
    const second = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), first, { roles: [[second, 'Owner']] });
    const stepDown = (person: Person) =>
      person.call('PUT', `/api/DataRole/${person.id}/UserDataRoles`, { collectionUid: collection.uid, role: 'Reader' });
    const responses = await Promise.all([stepDown(first), stepDown(second)]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(await ownersOf(collection.uid)).toHaveLength(1);
  });
});
