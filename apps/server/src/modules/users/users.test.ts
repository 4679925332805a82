import { expect, it } from 'vitest';
import { userListItem } from '@datalab/contract/api/users';
import { problem } from '@datalab/contract/errors';
import { pageOf } from '@datalab/contract/paging';
import { auditRecords, buildGroup, buildPerson, unique } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';

const page = pageOf(userListItem);

describeEachStore('users and system permissions', (ctx) => {
  it('lists users searchable and paged, with their groups', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const tag = unique('wren');
    const one = await buildPerson(ctx(), { sub: `${tag}-1` });
    await buildPerson(ctx(), { sub: `${tag}-2` });
    const group = await buildGroup(ctx(), admin, { members: [one] });
    const first = page.parse((await admin.call('GET', `/api/User?search=${tag}&pageSize=1`)).json());
    expect(first).toMatchObject({ totalCount: 2, page: 1, pageSize: 1 });
    expect(first.items[0]).toMatchObject({
      id: one.id,
      groups: [{ id: group.id, name: group.name }],
      permissions: { canManageUsers: false },
    });
  });

  it('grants and withdraws canManageUsers, effective on the next request, audited', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const helper = await buildPerson(ctx());
    expect((await helper.call('GET', '/api/User')).statusCode).toBe(403);
    const granted = await admin.call('PUT', `/api/User/${helper.id}/SystemPermissions`, { canManageUsers: true });
    expect(userListItem.parse(granted.json()).permissions.canManageUsers).toBe(true);
    expect((await helper.call('GET', '/api/User')).statusCode).toBe(200);
    await admin.call('PUT', `/api/User/${helper.id}/SystemPermissions`, { canManageUsers: false });
    expect((await helper.call('GET', '/api/User')).statusCode).toBe(403);
    const records = (await auditRecords(ctx(), 'user.systemPermissions')).filter(
      (r) => r.details.actor.id === admin.id,
    );
    expect(records.map((r) => r.details.after)).toEqual([{ canManageUsers: true }, { canManageUsers: false }]);
  });

  it('keeps the last administrator, and nobody raises their own permissions', async () => {
    const db = ctx().app.db;
    await db.updateTable('users').set({ can_manage_users: 0 }).execute();
    await ctx().app.access.bump(db);
    const last = await buildPerson(ctx(), { canManageUsers: true });
    const refused = await last.call('PUT', `/api/User/${last.id}/SystemPermissions`, { canManageUsers: false });
    expect(refused.statusCode).toBe(400);
    expect(problem.parse(refused.json()).title).toBe('At least one user with canManageUsers is required');
    expect((await last.call('GET', '/api/Account/GetCurrentUser')).json().permissions.canManageUsers).toBe(true);

    const second = await buildPerson(ctx(), { canManageUsers: true });
    expect(
      (await last.call('PUT', `/api/User/${last.id}/SystemPermissions`, { canManageUsers: false })).statusCode,
    ).toBe(200);
    expect(
      (await last.call('PUT', `/api/User/${last.id}/SystemPermissions`, { canManageUsers: true })).statusCode,
    ).toBe(403);
    expect(second.id).toBeGreaterThan(0);
  });

  it('ignores a mass-assigned permissions field anywhere else', async () => {
    const someone = await buildPerson(ctx());
    await someone.call('POST', '/api/ApplicationLog/ClientErrors', {
      message: 'x',
      path: '/',
      permissions: { canManageUsers: true },
    });
    expect((await someone.call('GET', '/api/Account/GetCurrentUser')).json().permissions.canManageUsers).toBe(false);
  });
});
