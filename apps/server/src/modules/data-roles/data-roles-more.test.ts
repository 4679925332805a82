import { expect, it } from 'vitest';
import { collectionDataRoles, userDataRoles } from '@datalab/contract/api/data-roles';
import { buildCollection, buildGroup, buildPerson, unique } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';

// Effective access made visible (paths through groups, indirect members), and answers that never
// tell an outsider which user ids exist.

describeEachStore('data roles: paths, indirect members and what errors reveal', (ctx) => {
  it('answers an outsider the same for an existing and a missing user id', async () => {
    const owner = await buildPerson(ctx());
    const reader = await buildPerson(ctx());
    const outsider = await buildPerson(ctx());
    const existing = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), owner, { roles: [[reader, 'Reader']] });
    for (const caller of [outsider, reader]) {
      const answers = [];
      for (const id of [existing.id, 999_999]) {
        const response = await caller.call('PUT', `/api/DataRole/${id}/UserDataRoles`, {
          collectionUid: collection.uid,
          role: 'Reader',
        });
        answers.push([response.statusCode, response.json().title]);
      }
      expect(answers[0]).toEqual(answers[1]);
      expect(answers[0]?.[0]).toBe(caller === reader ? 403 : 404);
    }
    for (const id of [existing.id, 999_999])
      expect((await outsider.call('GET', `/api/DataRole/${id}/UserDataRoles`)).statusCode).toBe(403);
    for (const id of [existing.id, 999_999])
      expect((await outsider.call('GET', `/api/User/${id}/Groups`)).statusCode).toBe(403);
  });

  it("answers an Owner's grant with the grantee's roles on collections the Owner can see, no others", async () => {
    const owner = await buildPerson(ctx());
    const stranger = await buildPerson(ctx());
    const grantee = await buildPerson(ctx());
    const mine = await buildCollection(ctx(), owner);
    const theirs = await buildCollection(ctx(), stranger, { roles: [[grantee, 'Reader']] });
    const response = await owner.call('PUT', `/api/DataRole/${grantee.id}/UserDataRoles`, {
      collectionUid: mine.uid,
      role: 'Editor',
    });
    const uids = userDataRoles.parse(response.json()).roles.map((r) => r.collection.uid);
    expect(uids).toEqual([mine.uid]);
    expect(uids).not.toContain(theirs.uid);
  });

  it("shows the path of each group a user's role comes through, and the indirect members of a collection", async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const owner = await buildPerson(ctx());
    const analyst = await buildPerson(ctx(), { name: 'Ana Analyst' });
    const collection = await buildCollection(ctx(), owner);
    const staff = await buildGroup(ctx(), admin, { name: unique('Staff') });
    const analysts = await buildGroup(ctx(), admin, { name: unique('Analysts'), members: [analyst] });
    await admin.call('POST', `/api/UserGroup/${staff.id}/UserGroup/${analysts.id}`);
    await owner.call('PUT', `/api/DataRole/${staff.id}/UserGroupDataRoles`, {
      collectionUid: collection.uid,
      role: 'Reader',
    });
    const ref = (g: { id: number; name: string }) => ({ id: g.id, name: g.name });

    const mine = userDataRoles.parse((await analyst.call('GET', `/api/DataRole/${analyst.id}/UserDataRoles`)).json());
    expect(mine.roles.find((r) => r.collection.uid === collection.uid)?.viaGroups).toEqual([
      { ...ref(staff), role: 'Reader', path: [ref(staff), ref(analysts)] },
    ]);

    const roles = collectionDataRoles.parse(
      (await owner.call('GET', `/api/DataRole/${collection.uid}/DataSourceCollectionDataRoles`)).json(),
    );
    expect(roles.indirectUsers).toEqual([
      {
        user: { id: analyst.id, name: 'Ana Analyst', username: expect.any(String) },
        role: 'Reader',
        path: [ref(staff), ref(analysts)],
      },
    ]);
    expect(roles.users.map((u) => u.user.id)).toEqual([owner.id]);
  });
});
