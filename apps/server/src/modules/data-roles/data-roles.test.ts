import { expect, it } from 'vitest';
import { collectionDataRoles, userDataRoles } from '@datalab/contract/api/data-roles';
import { problem } from '@datalab/contract/errors';
import { auditRecords, buildCollection, buildGroup, buildPerson } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';

describeEachStore('data roles and effective roles', (ctx) => {
  const canSee = async (person: Awaited<ReturnType<typeof buildPerson>>, uid: string) =>
    (await person.call('GET', `/api/DataSourceCollection/GetByUid/${uid}`)).statusCode === 200;

  it('reaches a user through nested groups, takes the strongest, and ends on the very next request', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const owner = await buildPerson(ctx());
    const analyst = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), owner);
    const staff = await buildGroup(ctx(), admin);
    const analysts = await buildGroup(ctx(), admin, { members: [analyst] });
    expect((await admin.call('POST', `/api/UserGroup/${staff.id}/UserGroup/${analysts.id}`)).statusCode).toBe(200);

    expect(await canSee(analyst, collection.uid)).toBe(false);
    await owner.call('PUT', `/api/DataRole/${staff.id}/UserGroupDataRoles`, {
      collectionUid: collection.uid,
      role: 'Reader',
    });
    expect(await canSee(analyst, collection.uid)).toBe(true);

    await owner.call('PUT', `/api/DataRole/${analysts.id}/UserGroupDataRoles`, {
      collectionUid: collection.uid,
      role: 'Editor',
    });
    const roles = userDataRoles.parse((await admin.call('GET', `/api/DataRole/${analyst.id}/UserDataRoles`)).json());
    const entry = roles.roles.find((r) => r.collection.uid === collection.uid);
    expect(entry).toMatchObject({ role: 'Editor', directRole: null });
    expect(entry?.viaGroups.map((g) => [g.name, g.role]).sort()).toEqual(
      [
        [analysts.name, 'Editor'],
        [staff.name, 'Reader'],
      ].sort(),
    );

    await admin.call('DELETE', `/api/UserGroup/${analysts.id}/User/${analyst.id}`);
    expect(await canSee(analyst, collection.uid)).toBe(false);
  });

  it('lets Owners grant and withdraw, shows who holds what, and audits each change', async () => {
    const owner = await buildPerson(ctx());
    const colleague = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), owner);
    const granted = await owner.call('PUT', `/api/DataRole/${colleague.id}/UserDataRoles`, {
      collectionUid: collection.uid,
      role: 'Editor',
    });
    expect(granted.statusCode).toBe(200);
    const access = collectionDataRoles.parse(
      (await owner.call('GET', `/api/DataRole/${collection.uid}/DataSourceCollectionDataRoles`)).json(),
    );
    expect(access.users.map((u) => [u.user.id, u.role]).sort()).toEqual(
      [
        [owner.id, 'Owner'],
        [colleague.id, 'Editor'],
      ].sort(),
    );
    await owner.call('PUT', `/api/DataRole/${colleague.id}/UserDataRoles`, {
      collectionUid: collection.uid,
      role: null,
    });
    expect(await canSee(colleague, collection.uid)).toBe(false);
    const records = (await auditRecords(ctx(), 'dataRole.withdraw')).filter(
      (r) => (r.details.before as { collection: string }).collection === collection.uid,
    );
    expect(records.map((r) => [r.details.before, r.details.after])).toEqual([
      [
        { collection: collection.uid, role: 'Editor' },
        { collection: collection.uid, role: null },
      ],
    ]);
  });

  it('keeps at least one Owner, changing nothing when refused', async () => {
    const owner = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), owner);
    const response = await owner.call('PUT', `/api/DataRole/${owner.id}/UserDataRoles`, {
      collectionUid: collection.uid,
      role: 'Reader',
    });
    expect(response.statusCode).toBe(400);
    expect(problem.parse(response.json()).title).toBe('At least one Owner is required');
    expect(await canSee(owner, collection.uid)).toBe(true);
    const detail = await owner.call('GET', `/api/DataSourceCollection/GetByUid/${collection.uid}`);
    expect(detail.json().myRole).toBe('Owner');
  });

  it('lets an Owner step down once another Owner exists', async () => {
    const owner = await buildPerson(ctx());
    const successor = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), owner, { roles: [[successor, 'Owner']] });
    const response = await owner.call('PUT', `/api/DataRole/${owner.id}/UserDataRoles`, {
      collectionUid: collection.uid,
      role: 'Reader',
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses anyone raising their own role, administrators included', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const owner = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), owner);
    const response = await admin.call('PUT', `/api/DataRole/${admin.id}/UserDataRoles`, {
      collectionUid: collection.uid,
      role: 'Owner',
    });
    expect(response.statusCode).toBe(403);
    expect((await admin.call('GET', `/api/DataSourceCollection/GetByUid/${collection.uid}`)).json().myRole).toBeNull();
  });

  it('answers unknown users, groups and collections with the spec template', async () => {
    const owner = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), owner);
    const user = await owner.call('PUT', '/api/DataRole/999999/UserDataRoles', {
      collectionUid: collection.uid,
      role: 'Reader',
    });
    expect([user.statusCode, problem.parse(user.json()).title]).toEqual([404, 'User with id 999999 does not exist']);
    const group = await owner.call('PUT', '/api/DataRole/999999/UserGroupDataRoles', {
      collectionUid: collection.uid,
      role: 'Reader',
    });
    expect([group.statusCode, problem.parse(group.json()).title]).toEqual([
      404,
      'User group with id 999999 does not exist',
    ]);
    const other = await buildPerson(ctx());
    const missing = await owner.call('PUT', `/api/DataRole/${other.id}/UserDataRoles`, {
      collectionUid: 'no-such',
      role: 'Reader',
    });
    expect([missing.statusCode, problem.parse(missing.json()).title]).toEqual([
      404,
      'Collection with id no-such does not exist',
    ]);
    const badRole = await owner.call('PUT', `/api/DataRole/${other.id}/UserDataRoles`, {
      collectionUid: collection.uid,
      role: 'King',
    });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json().errors).toEqual({ role: ['Invalid option'] });
  });
});
