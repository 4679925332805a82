import { expect, it } from 'vitest';
import { collectionDetail, collectionSummary } from '@datalab/contract/api/collections';
import { problem } from '@datalab/contract/errors';
import { pageOf } from '@datalab/contract/paging';
import { buildCollection, buildGroup, buildPerson, unique } from '../../../test/support/builders.ts';
import { describeApp } from '../../../test/support/suite.ts';

// Who may create collections, what a name clash reveals, who sees the owners, and sorting.

const page = pageOf(collectionSummary);
const CREATORS = 'Collection makers';

describeApp(
  'collections: creating, clashes, owners and sorting',
  (ctx) => {
    it('lets administrators and creator-group members (also nested) create, nobody else', async () => {
      const admin = await buildPerson(ctx(), { canManageUsers: true });
      const plain = await buildPerson(ctx());
      const nested = await buildPerson(ctx());
      const makers = await buildGroup(ctx(), admin, { name: CREATORS });
      const team = await buildGroup(ctx(), admin, { members: [nested] });
      await admin.call('POST', `/api/UserGroup/${makers.id}/UserGroup/${team.id}`);

      const create = (person: typeof plain) =>
        person.call('POST', '/api/DataSourceCollection', { name: unique('Made') });
      expect((await create(plain)).statusCode).toBe(403);
      expect((await create(nested)).statusCode).toBe(201);
      expect((await create(admin)).statusCode).toBe(201);
      const flags = async (person: typeof plain) =>
        (await person.call('GET', '/api/Account/GetCurrentUser')).json<{ canCreateCollections: boolean }>()
          .canCreateCollections;
      expect([await flags(plain), await flags(nested), await flags(admin)]).toEqual([false, true, true]);
    });

    it('answers a clash with a hidden collection without confirming that it exists', async () => {
      const stranger = await buildPerson(ctx());
      const maker = await buildPerson(ctx(), { creator: true });
      const hidden = await buildCollection(ctx(), stranger);

      const clash = await maker.call('POST', '/api/DataSourceCollection', { name: hidden.name });
      expect(clash.statusCode).toBe(409);
      const body = problem.parse(clash.json());
      expect(body.title).not.toContain('Collection');
      expect(JSON.stringify(clash.json())).not.toContain(hidden.uid);
      expect(body.title).toBe('This name is not available; choose another');

      // A clash with a collection the caller can see still names it.
      const own = await buildCollection(ctx(), maker);
      const visible = await maker.call('POST', '/api/DataSourceCollection', { name: own.name });
      expect(problem.parse(visible.json()).title).toBe(`Collection with name ${own.name} already exists`);
    });

    it('shows every reader who owns the collection', async () => {
      const admin = await buildPerson(ctx(), { canManageUsers: true });
      const owner = await buildPerson(ctx(), { name: 'Olive Owner' });
      const reader = await buildPerson(ctx());
      const collection = await buildCollection(ctx(), owner, { roles: [[reader, 'Reader']] });
      const stewards = await buildGroup(ctx(), admin, { members: [admin] });
      await ctx()
        .app.db.insertInto('collection_group_roles')
        .values({
          collection_id: collection.id,
          group_id: stewards.id,
          role: 'Owner',
          created_at: new Date().toISOString(),
        })
        .execute();
      await ctx().app.access.bump(ctx().app.db);
      const detail = collectionDetail.parse(
        (await reader.call('GET', `/api/DataSourceCollection/GetByUid/${collection.uid}`)).json(),
      );
      expect(detail.owners).toEqual([{ id: owner.id, name: 'Olive Owner', username: expect.any(String) }]);
      expect(detail.ownerGroups).toEqual([{ id: stewards.id, name: stewards.name }]);
    });

    it('sorts by an allow-listed column in either direction, and refuses any other column', async () => {
      const owner = await buildPerson(ctx());
      const tag = unique('sortable');
      for (const name of ['b', 'c', 'a']) await buildCollection(ctx(), owner, { name: `${tag} ${name}` });
      const names = async (query: string) =>
        page
          .parse((await owner.call('GET', `/api/DataSourceCollection/GetAll?search=${tag}&${query}`)).json())
          .items.map((c) => c.name.slice(-1));
      expect(await names('sortBy=name')).toEqual(['a', 'b', 'c']);
      expect(await names('sortBy=name&sortDirection=desc')).toEqual(['c', 'b', 'a']);
      expect(await names('sortBy=createdAt&sortDirection=desc')).toEqual(['a', 'c', 'b']);
      const refused = await owner.call('GET', '/api/DataSourceCollection/GetAll?sortBy=description');
      expect(refused.statusCode).toBe(400);
      expect(Object.keys(refused.json().errors)).toEqual(['querystring.sortBy']);
    });
  },
  { env: { COLLECTION_CREATOR_GROUPS: CREATORS } },
);
