import { expect, it } from 'vitest';
import { collectionDetail, collectionSummary } from '@datalab/contract/api/collections';
import { validationProblem, problem } from '@datalab/contract/errors';
import { pageOf } from '@datalab/contract/paging';
import { auditRecords, buildCollection, buildPerson, unique } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';

const page = pageOf(collectionSummary);

describeEachStore('collections', (ctx) => {
  it('makes the creator Owner and records the creation', async () => {
    const owner = await buildPerson(ctx(), { creator: true });
    const name = unique('Finance');
    const response = await owner.call('POST', '/api/DataSourceCollection', { name, description: 'Ledgers' });
    expect(response.statusCode).toBe(201);
    const created = collectionDetail.parse(response.json());
    expect(created).toMatchObject({
      name,
      description: 'Ledgers',
      myRole: 'Owner',
      assetCount: 0,
      can: { edit: true, delete: true, manageRoles: true },
    });
    // Dates are Dates in the presenter and leave as the stored ISO text.
    const row = await ctx()
      .app.db.selectFrom('collections')
      .select(['created_at', 'updated_at'])
      .where('uid', '=', created.uid)
      .executeTakeFirstOrThrow();
    expect(response.json()).toMatchObject({ createdAt: row.created_at, updatedAt: row.updated_at });
    expect(created.createdAt).toEqual(new Date(row.created_at));
    const [record] = (await auditRecords(ctx(), 'collection.create')).filter(
      (r) => (r.details.after as { uid: string }).uid === created.uid,
    );
    expect(record?.details.actor.id).toBe(owner.id);
  });

  it('refuses a duplicate name, whatever its case, with 409 and nothing created', async () => {
    const owner = await buildPerson(ctx(), { creator: true });
    const { name } = await buildCollection(ctx(), owner);
    const before = await ctx()
      .app.db.selectFrom('collections')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const response = await owner.call('POST', '/api/DataSourceCollection', { name: `  ${name.toUpperCase()} ` });
    expect(response.statusCode).toBe(409);
    expect(problem.parse(response.json()).title).toBe(`Collection with name ${name.toUpperCase()} already exists`);
    const after = await ctx()
      .app.db.selectFrom('collections')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('validates with the spec templates', async () => {
    const owner = await buildPerson(ctx(), { creator: true });
    const response = await owner.call('POST', '/api/DataSourceCollection', { name: '   ' });
    expect(response.statusCode).toBe(400);
    expect(validationProblem.parse(response.json()).errors).toEqual({ name: ['Name is required'] });
  });

  it('ignores mass-assigned owner, roles and permissions fields', async () => {
    const someone = await buildPerson(ctx(), { creator: true });
    const victim = await buildPerson(ctx());
    const response = await someone.call('POST', '/api/DataSourceCollection', {
      name: unique('Sneaky'),
      owner: victim.id,
      roles: [{ userId: victim.id, role: 'Owner' }],
      permissions: { canManageUsers: true },
      createdBy: victim.id,
    });
    expect(response.statusCode).toBe(201);
    const created = collectionDetail.parse(response.json());
    expect(created.createdBy?.id).toBe(someone.id);
    const roles = await ctx()
      .app.db.selectFrom('collection_user_roles')
      .selectAll()
      .where('collection_id', '=', created.id)
      .execute();
    expect(roles.map((r) => [r.user_id, r.role])).toEqual([[someone.id, 'Owner']]);
    const me = await someone.call('GET', '/api/Account/GetCurrentUser');
    expect(me.json().permissions.canManageUsers).toBe(false);
  });

  it('lists only what the caller can see, with their role, searchable and paged', async () => {
    const owner = await buildPerson(ctx());
    const reader = await buildPerson(ctx());
    const tag = unique('zeta');
    const visible = await buildCollection(ctx(), owner, { name: `${tag} one`, roles: [[reader, 'Reader']] });
    await buildCollection(ctx(), owner, { name: `${tag} two` });
    await buildCollection(ctx(), owner, { name: `${tag} three`, description: 'has 100% of it' });

    const mine = page.parse((await reader.call('GET', `/api/DataSourceCollection/GetAll?search=${tag}`)).json());
    expect(mine.items.map((c) => [c.uid, c.myRole])).toEqual([[visible.uid, 'Reader']]);
    expect(mine.totalCount).toBe(1);

    const paged = page.parse(
      (await owner.call('GET', `/api/DataSourceCollection/GetAll?search=${tag}&page=2&pageSize=2`)).json(),
    );
    expect(paged).toMatchObject({ totalCount: 3, page: 2, pageSize: 2 });
    expect(paged.items).toHaveLength(1);

    const percent = page.parse(
      (await owner.call('GET', `/api/DataSourceCollection/GetAll?search=${encodeURIComponent('100%')}`)).json(),
    );
    expect(percent.items.map((c) => c.name)).toEqual([`${tag} three`]);
  });

  it('answers an unknown uid with the spec template and 404', async () => {
    const someone = await buildPerson(ctx());
    const response = await someone.call('GET', '/api/DataSourceCollection/GetByUid/nope-123');
    expect(response.statusCode).toBe(404);
    expect(problem.parse(response.json()).title).toBe('Collection with id nope-123 does not exist');
  });

  it('updates name and description and audits before and after', async () => {
    const owner = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), owner, { description: 'old' });
    const name = unique('Renamed');
    const response = await owner.call('PUT', '/api/DataSourceCollection', {
      uid: collection.uid,
      name,
      description: 'new',
    });
    expect(collectionDetail.parse(response.json())).toMatchObject({ name, description: 'new' });
    const record = (await auditRecords(ctx(), 'collection.update')).find(
      (r) => (r.details.after as { uid: string }).uid === collection.uid,
    );
    expect(record?.details.before).toMatchObject({ name: collection.name, description: 'old' });
    expect(record?.details.after).toMatchObject({ name, description: 'new' });
  });

  it('deletes a collection with what it holds, and audits it', async () => {
    const owner = await buildPerson(ctx());
    const reader = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), owner, { roles: [[reader, 'Reader']] });
    const at = new Date().toISOString();
    await ctx()
      .app.db.insertInto('data_sources')
      .values({
        uid: unique('asset'),
        collection_id: collection.id,
        name: 'Orders',
        kind: 'sql',
        created_at: at,
        updated_at: at,
      })
      .execute();
    const response = await owner.call('DELETE', `/api/DataSourceCollection?uid=${collection.uid}`);
    expect(response.json()).toEqual({ uid: collection.uid, deleted: true });
    const db = ctx().app.db;
    expect(
      await db.selectFrom('data_sources').selectAll().where('collection_id', '=', collection.id).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('collection_user_roles').selectAll().where('collection_id', '=', collection.id).execute(),
    ).toEqual([]);
    expect((await reader.call('GET', `/api/DataSourceCollection/GetByUid/${collection.uid}`)).statusCode).toBe(404);
    const record = (await auditRecords(ctx(), 'collection.delete')).find(
      (r) => (r.details.before as { uid: string }).uid === collection.uid,
    );
    expect(record?.details.before).toMatchObject({ name: collection.name, assetCount: 1 });
  });

  it('finds a collection by one of its data assets, hidden from those without a role', async () => {
    const owner = await buildPerson(ctx());
    const stranger = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), owner);
    const at = new Date().toISOString();
    const assetUid = unique('asset');
    const asset = await ctx()
      .app.db.insertInto('data_sources')
      .values({
        uid: assetUid,
        collection_id: collection.id,
        name: 'Orders',
        kind: 'sql',
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const id of [assetUid, String(asset.id)]) {
      const found = await owner.call('GET', `/api/DataSourceCollection/GetByDataAssetId/${id}`);
      expect(collectionDetail.parse(found.json())).toMatchObject({ uid: collection.uid, assetCount: 1 });
    }
    const hidden = await stranger.call('GET', `/api/DataSourceCollection/GetByDataAssetId/${assetUid}`);
    expect(hidden.statusCode).toBe(404);
    expect(problem.parse(hidden.json()).title).toBe(`Data asset with id ${assetUid} does not exist`);
  });
});
