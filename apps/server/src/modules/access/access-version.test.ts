import { expect, it } from 'vitest';
import { buildCollection, buildGroup, buildPerson, type Person } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';

// One long-lived instance per store. On the embedded store the access version lives in process and
// user rows and access are cached per version, so a change that forgot to bump it would be missed by
// the very next request here. Each kind of change is made through the API, then checked at once.

describeEachStore(
  'every access change holds at the next request on the same instance',
  (ctx) => {
    const status = async (person: Person, url: string) => (await person.call('GET', url)).statusCode;
    const seesCollection = (person: Person, uid: string) => status(person, `/api/DataSourceCollection/GetByUid/${uid}`);

    it('direct grants and their withdrawal', async () => {
      const owner = await buildPerson(ctx());
      const member = await buildPerson(ctx());
      const collection = await buildCollection(ctx(), owner);
      await owner.call('PUT', `/api/DataRole/${member.id}/UserDataRoles`, {
        collectionUid: collection.uid,
        role: 'Reader',
      });
      expect(await seesCollection(member, collection.uid)).toBe(200);
      await owner.call('PUT', `/api/DataRole/${member.id}/UserDataRoles`, {
        collectionUid: collection.uid,
        role: null,
      });
      expect(await seesCollection(member, collection.uid)).toBe(404);
    });

    it('group grants, memberships, nesting and deleting a group', async () => {
      const admin = await buildPerson(ctx(), { canManageUsers: true });
      const owner = await buildPerson(ctx());
      const member = await buildPerson(ctx());
      const collection = await buildCollection(ctx(), owner);
      const outer = await buildGroup(ctx(), admin);
      const inner = await buildGroup(ctx(), admin);
      await owner.call('PUT', `/api/DataRole/${outer.id}/UserGroupDataRoles`, {
        collectionUid: collection.uid,
        role: 'Reader',
      });
      await admin.call('POST', `/api/UserGroup/${inner.id}/User/${member.id}`);
      expect(await seesCollection(member, collection.uid)).toBe(404);
      await admin.call('POST', `/api/UserGroup/${outer.id}/UserGroup/${inner.id}`);
      expect(await seesCollection(member, collection.uid)).toBe(200);
      await admin.call('DELETE', `/api/UserGroup/${outer.id}/UserGroup/${inner.id}`);
      expect(await seesCollection(member, collection.uid)).toBe(404);
      await admin.call('POST', `/api/UserGroup/${outer.id}/User/${member.id}`);
      expect(await seesCollection(member, collection.uid)).toBe(200);
      await admin.call('DELETE', `/api/UserGroup/${outer.id}/User/${member.id}`);
      expect(await seesCollection(member, collection.uid)).toBe(404);
      await admin.call('POST', `/api/UserGroup/${outer.id}/User/${member.id}`);
      expect(await seesCollection(member, collection.uid)).toBe(200);
      await admin.call('DELETE', `/api/UserGroup/${outer.id}`);
      expect(await seesCollection(member, collection.uid)).toBe(404);
    });

    it('system permissions, deactivation and reactivation', async () => {
      const admin = await buildPerson(ctx(), { canManageUsers: true });
      const helper = await buildPerson(ctx());
      expect(await status(helper, '/api/User')).toBe(403);
      await admin.call('PUT', `/api/User/${helper.id}/SystemPermissions`, { canManageUsers: true });
      expect(await status(helper, '/api/User')).toBe(200);
      await admin.call('PUT', `/api/User/${helper.id}/Active`, { active: false });
      expect(await status(helper, '/api/Account/GetCurrentUser')).toBe(401);
      await admin.call('PUT', `/api/User/${helper.id}/Active`, { active: true });
      expect(await status(helper, '/api/Account/GetCurrentUser')).toBe(200);
    });

    it('renaming a group into (and out of) the collection creators', async () => {
      const admin = await buildPerson(ctx(), { canManageUsers: true });
      const member = await buildPerson(ctx());
      const group = await buildGroup(ctx(), admin, { name: 'Future creators', members: [member] });
      const canCreate = async () =>
        (await member.call('GET', '/api/Account/GetCurrentUser')).json<{ canCreateCollections: boolean }>()
          .canCreateCollections;
      expect(await canCreate()).toBe(false);
      await admin.call('PUT', `/api/UserGroup/${group.id}`, { name: 'Version creators', description: '' });
      expect(await canCreate()).toBe(true);
      await admin.call('PUT', `/api/UserGroup/${group.id}`, { name: 'Former creators', description: '' });
      expect(await canCreate()).toBe(false);
    });

    it('deleting a collection', async () => {
      const owner = await buildPerson(ctx());
      const reader = await buildPerson(ctx());
      const collection = await buildCollection(ctx(), owner, { roles: [[reader, 'Reader']] });
      expect(await seesCollection(reader, collection.uid)).toBe(200);
      await owner.call('DELETE', `/api/DataSourceCollection?uid=${collection.uid}`);
      expect(await seesCollection(reader, collection.uid)).toBe(404);
    });
  },
  { env: { COLLECTION_CREATOR_GROUPS: 'Version creators' } },
);
