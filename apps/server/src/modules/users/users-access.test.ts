import { expect, it } from 'vitest';
import { userGroupsOfUser, userListItem, userPickerItem } from '@datalab/contract/api/users';
import { pageOf } from '@datalab/contract/paging';
import { TEST_PUBLIC_URL } from '../../../test/support/app.ts';
import { auditRecords, buildCollection, buildGroup, buildPerson, unique } from '../../../test/support/builders.ts';
import { injectClient } from '../../../test/support/http.ts';
import { signIn, SignInError } from '../../../test/support/sign-in.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { LastSeen } from './last-seen.ts';

// The user picker's limits and what it tells whom; deactivation; "last seen"; a user's groups with
// the path they come through; sorting.

const page = pageOf(userListItem);

describeApp('users: picker, deactivation, last seen, groups and sorting', (ctx) => {
  it('answers at most 20 matches for at least 2 characters, e-mail and groups only to administrators', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const owner = await buildPerson(ctx());
    await buildCollection(ctx(), owner);
    const tag = unique('picky');
    const people = [];
    for (let i = 0; i < 22; i += 1) people.push(await buildPerson(ctx(), { sub: `${tag}-${i}` }));
    await buildGroup(ctx(), admin, { members: [people[0] ?? owner] });

    expect((await owner.call('GET', '/api/User/Autocomplete?search=p')).statusCode).toBe(400);
    expect((await owner.call('GET', `/api/User/Autocomplete?search=${tag}&limit=21`)).statusCode).toBe(400);
    const asOwner = (await owner.call('GET', `/api/User/Autocomplete?search=${tag}&limit=20`)).json<object[]>();
    expect(asOwner).toHaveLength(20);
    for (const item of asOwner) expect(Object.keys(item).sort()).toEqual(['id', 'name', 'username']);

    const asAdmin = (await admin.call('GET', `/api/User/Autocomplete?search=${tag}-0`))
      .json<unknown[]>()
      .map((i) => userPickerItem.parse(i));
    expect(asAdmin[0]).toMatchObject({
      id: people[0]?.id,
      email: null,
      groups: [expect.objectContaining({ name: expect.any(String) })],
    });
  });

  it('deactivates and reactivates: tokens refused, sign-in refused, access kept, not oneself', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const owner = await buildPerson(ctx());
    const leaver = await buildPerson(ctx());
    const collection = await buildCollection(ctx(), owner, { roles: [[leaver, 'Editor']] });

    const off = await admin.call('PUT', `/api/User/${leaver.id}/Active`, { active: false });
    expect(userListItem.parse(off.json()).isActive).toBe(false);
    expect((await leaver.call('GET', '/api/Account/GetCurrentUser')).statusCode).toBe(401);
    const kept = await ctx()
      .app.db.selectFrom('collection_user_roles')
      .select('role')
      .where('user_id', '=', leaver.id)
      .where('collection_id', '=', collection.id)
      .execute();
    expect(kept).toEqual([{ role: 'Editor' }]);
    expect(
      (await owner.call('GET', '/api/User/Autocomplete?search=person')).json<{ id: number }[]>().map((u) => u.id),
    ).not.toContain(leaver.id);

    const on = await admin.call('PUT', `/api/User/${leaver.id}/Active`, { active: true });
    expect(userListItem.parse(on.json()).isActive).toBe(true);
    expect((await leaver.call('GET', `/api/DataSourceCollection/GetByUid/${collection.uid}`)).json().myRole).toBe(
      'Editor',
    );

    expect((await admin.call('PUT', `/api/User/${admin.id}/Active`, { active: false })).statusCode).toBe(403);
    const records = (await auditRecords(ctx(), 'user.deactivate')).filter((r) => r.details.actor.id === admin.id);
    expect(records).toHaveLength(1);
  });

  it('refuses a deactivated account at the built-in sign-in form', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const client = injectClient(ctx().app);
    const partner = await signIn(client, { publicUrl: TEST_PUBLIC_URL, username: 'partner', password: 'datalab' });
    const me = (
      await ctx().app.inject({
        method: 'GET',
        url: '/api/Account/GetCurrentUser',
        headers: { authorization: `Bearer ${partner.access_token}` },
      })
    ).json<{ id: number }>();
    await admin.call('PUT', `/api/User/${me.id}/Active`, { active: false });
    await expect(
      signIn(client, { publicUrl: TEST_PUBLIC_URL, username: 'partner', password: 'datalab' }),
    ).rejects.toThrow(SignInError);
    await admin.call('PUT', `/api/User/${me.id}/Active`, { active: true });
    await expect(
      signIn(client, { publicUrl: TEST_PUBLIC_URL, username: 'partner', password: 'datalab' }),
    ).resolves.toBeTruthy();
  });

  it("ends a deactivated user's silent renewal: their refresh tokens are refused until reactivation", async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const tokens = await signIn(injectClient(ctx().app), {
      publicUrl: TEST_PUBLIC_URL,
      username: 'analyst',
      password: 'datalab',
    });
    const me = (
      await ctx().app.inject({
        method: 'GET',
        url: '/api/Account/GetCurrentUser',
        headers: { authorization: `Bearer ${tokens.access_token}` },
      })
    ).json<{ id: number }>();
    const refresh = (refreshToken: string) =>
      ctx().app.inject({
        method: 'POST',
        url: '/oidc/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          client_id: 'datalab-portal',
        }).toString(),
      });
    await admin.call('PUT', `/api/User/${me.id}/Active`, { active: false });
    const refused = await refresh(tokens.refresh_token ?? '');
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ error: string }>().error).toBe('invalid_grant');
    await admin.call('PUT', `/api/User/${me.id}/Active`, { active: true });
    const second = await signIn(injectClient(ctx().app), {
      publicUrl: TEST_PUBLIC_URL,
      username: 'analyst',
      password: 'datalab',
    });
    expect((await refresh(second.refresh_token ?? '')).statusCode).toBe(200);
  });

  it('records "last seen" at the first request, and not again within minutes', async () => {
    const visitor = await buildPerson(ctx());
    const lastSeen = async () => {
      await new Promise((resolve) => setTimeout(resolve, 50)); // the write is off the request's path
      const row = await ctx()
        .app.db.selectFrom('users')
        .select('last_seen_at')
        .where('id', '=', visitor.id)
        .executeTakeFirstOrThrow();
      return row.last_seen_at;
    };
    const first = await lastSeen();
    expect(first).not.toBeNull();
    await visitor.call('GET', '/api/Account/GetCurrentUser');
    expect(await lastSeen()).toBe(first);
  });

  it('writes "last seen" again once the interval has passed, not before', async () => {
    const visitor = await buildPerson(ctx());
    const db = ctx().app.db;
    const read = async () =>
      (await db.selectFrom('users').select('last_seen_at').where('id', '=', visitor.id).executeTakeFirstOrThrow())
        .last_seen_at;
    // The writes are off the request's path: wait (bounded) for one to land instead of sleeping a guess.
    const settlesAt = async (expected: string) => {
      let seen = await read();
      for (let attempt = 0; attempt < 40 && seen !== expected; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        seen = await read();
      }
      return seen;
    };
    // The app's own write for buildPerson's first request must land first, or it could overwrite ours.
    for (let attempt = 0; attempt < 40 && (await read()) === null; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const tracker = new LastSeen(db, ctx().app.log, 60_000);
    const start = Date.parse('2030-01-01T00:00:00.000Z');
    tracker.touch(visitor.id, start);
    expect(await settlesAt('2030-01-01T00:00:00.000Z')).toBe('2030-01-01T00:00:00.000Z');
    tracker.touch(visitor.id, start + 59_999);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await read()).toBe('2030-01-01T00:00:00.000Z');
    tracker.touch(visitor.id, start + 60_000);
    expect(await settlesAt('2030-01-01T00:01:00.000Z')).toBe('2030-01-01T00:01:00.000Z');
  });

  it("lists a user's groups, direct and through nesting, with the path", async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const analyst = await buildPerson(ctx());
    const staff = await buildGroup(ctx(), admin, { name: unique('Staff') });
    const analysts = await buildGroup(ctx(), admin, { name: unique('Analysts'), members: [analyst] });
    await admin.call('POST', `/api/UserGroup/${staff.id}/UserGroup/${analysts.id}`);
    const own = userGroupsOfUser.parse((await analyst.call('GET', `/api/User/${analyst.id}/Groups`)).json());
    const [a, s] = [
      { id: analysts.id, name: analysts.name },
      { id: staff.id, name: staff.name },
    ];
    expect(own.groups).toEqual([
      { group: a, direct: true, path: [a] },
      { group: s, direct: false, path: [s, a] },
    ]);
    expect((await analyst.call('GET', `/api/User/${admin.id}/Groups`)).statusCode).toBe(403);
    expect((await admin.call('GET', '/api/User/999999/Groups')).statusCode).toBe(404);
  });

  it('sorts users by an allow-listed column', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const tag = unique('sorted');
    for (const suffix of ['b', 'a', 'c']) await buildPerson(ctx(), { sub: `${tag}-${suffix}` });
    const usernames = async (query: string) =>
      page
        .parse((await admin.call('GET', `/api/User?search=${tag}&${query}`)).json())
        .items.map((u) => u.username?.slice(-1));
    expect(await usernames('sortBy=username&sortDirection=desc')).toEqual(['c', 'b', 'a']);
    expect(await usernames('sortBy=createdAt')).toEqual(['b', 'a', 'c']);
    expect((await admin.call('GET', '/api/User?sortBy=password')).statusCode).toBe(400);
  });
});
