import { expect, it } from 'vitest';
import { currentUser } from '@datalab/contract/api/account';
import { problem } from '@datalab/contract/errors';
import { texts } from '@datalab/contract/texts';
import { BUILT_IN_AUDIENCE } from '../../config.ts';
import { TEST_PUBLIC_URL } from '../../../test/support/app.ts';
import { injectClient } from '../../../test/support/http.ts';
import { signIn, SignInError } from '../../../test/support/sign-in.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import { signWithServerKey, signWithStrangerKey, unsignedToken } from '../../../test/support/tokens.ts';

const now = () => Math.floor(Date.now() / 1000);

describeEachStore('sign-in and the current user', (ctx) => {
  const getCurrentUser = (authorization?: string) =>
    ctx().app.inject({
      method: 'GET',
      url: '/api/Account/GetCurrentUser',
      headers: authorization ? { authorization } : {},
    });
  const userCount = async () =>
    Number(
      (
        await ctx()
          .app.db.selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const validClaims = (overrides: Record<string, unknown> = {}) => ({
    iss: `${TEST_PUBLIC_URL}/oidc`,
    aud: BUILT_IN_AUDIENCE,
    sub: 'forged-subject',
    iat: now(),
    exp: now() + 300,
    ...overrides,
  });

  it('signs the administrator in through the login form and reports name and permissions', async () => {
    const token = await ctx().tokenFor('admin');
    const response = await getCurrentUser(`Bearer ${token}`);
    expect(response.statusCode).toBe(200);
    const user = currentUser.parse(response.json());
    expect(user).toMatchObject({ name: 'Ada Admin', username: 'admin', permissions: { canManageUsers: true } });
  });

  it('gives the analyst no system permission', async () => {
    const response = await getCurrentUser(`Bearer ${await ctx().tokenFor('analyst')}`);
    expect(currentUser.parse(response.json()).permissions).toEqual({ canManageUsers: false });
  });

  it('tells who is a Digital Lab partner, and who is nothing else (DIGITAL_LAB_GROUPS: Partners in the demo)', async () => {
    const facts = async (username: string) => {
      const user = currentUser.parse((await getCurrentUser(`Bearer ${await ctx().tokenFor(username)}`)).json());
      return { canUseDigitalLab: user.canUseDigitalLab, isDigitalLabOnly: user.isDigitalLabOnly };
    };
    expect(await facts('partner')).toEqual({ canUseDigitalLab: true, isDigitalLabOnly: true });
    expect(await facts('analyst')).toEqual({ canUseDigitalLab: false, isDigitalLabOnly: false });
    // Administrators look after the partners: the navigation offers them the Digital Lab, sign-in does not send them.
    expect(await facts('admin')).toEqual({ canUseDigitalLab: true, isDigitalLabOnly: false });
  });

  it('stops sending a partner to the Digital Lab once they belong to a staff group too, from the next request', async () => {
    const admin = `Bearer ${await ctx().tokenFor('admin')}`;
    const partner = currentUser.parse((await getCurrentUser(`Bearer ${await ctx().tokenFor('partner')}`)).json());
    const groups = await ctx().app.inject({
      method: 'GET',
      url: '/api/UserGroup?search=Staff',
      headers: { authorization: admin },
    });
    const staff = groups.json<{ items: { id: number; name: string }[] }>().items.find((g) => g.name === 'Staff');
    if (!staff) throw new Error('the demo has a Staff group');
    const join = (method: 'POST' | 'DELETE') =>
      ctx().app.inject({
        method,
        url: `/api/UserGroup/${String(staff.id)}/User/${String(partner.id)}`,
        headers: { authorization: admin },
      });
    expect((await join('POST')).statusCode).toBe(200);
    try {
      const after = currentUser.parse((await getCurrentUser(`Bearer ${await ctx().tokenFor('partner')}`)).json());
      expect(after).toMatchObject({ canUseDigitalLab: true, isDigitalLabOnly: false });
    } finally {
      expect((await join('DELETE')).statusCode).toBeLessThan(300);
    }
  });

  it('refuses a wrong password on the login page without issuing a token', async () => {
    await expect(
      signIn(injectClient(ctx().app), { publicUrl: TEST_PUBLIC_URL, username: 'admin', password: 'wrong' }),
    ).rejects.toThrow(SignInError);
  });

  it('answers 401 with the reply shape when no token is sent', async () => {
    const response = await getCurrentUser();
    expect(response.statusCode).toBe(401);
    expect(problem.parse(response.json())).toMatchObject({ status: 401, title: texts.unauthenticated });
  });

  it.each([
    ['malformed', async () => 'Bearer not.a.jwt'],
    ['not a bearer scheme', async () => 'Basic YWRtaW46ZGF0YWxhYg=='],
    [
      'expired',
      async (dir: string) =>
        `Bearer ${await signWithServerKey(dir, validClaims({ exp: now() - 60, iat: now() - 600 }))}`,
    ],
    ['wrongly signed', async (dir: string) => `Bearer ${await signWithStrangerKey(dir, validClaims())}`],
    ['alg none', async () => `Bearer ${unsignedToken(validClaims())}`],
    [
      'wrong audience',
      async (dir: string) => `Bearer ${await signWithServerKey(dir, validClaims({ aud: 'some-other-api' }))}`,
    ],
    [
      'wrong issuer',
      async (dir: string) => `Bearer ${await signWithServerKey(dir, validClaims({ iss: 'http://evil.example/oidc' }))}`,
    ],
    [
      'without a subject',
      async (dir: string) => `Bearer ${await signWithServerKey(dir, validClaims({ sub: undefined }))}`,
    ],
  ])('refuses a %s token with 401 and creates no user', async (_name, makeHeader) => {
    const before = await userCount();
    const response = await getCurrentUser(await makeHeader(ctx().config.dataDir));
    expect(response.statusCode).toBe(401);
    expect(await userCount()).toBe(before);
  });

  it('provisions a new user on first sight, keyed by issuer and subject, exactly once', async () => {
    const claims = validClaims({ sub: 'newcomer', name: 'Nia Newcomer', preferred_username: 'nia' });
    const token = await signWithServerKey(ctx().config.dataDir, claims);
    const before = await userCount();
    const first = currentUser.parse((await getCurrentUser(`Bearer ${token}`)).json());
    const second = currentUser.parse((await getCurrentUser(`Bearer ${token}`)).json());
    expect(first).toEqual(second);
    expect(first).toMatchObject({ name: 'Nia Newcomer', username: 'nia', permissions: { canManageUsers: false } });
    expect(await userCount()).toBe(before + 1);
  });

  it('refuses a deactivated user at once', async () => {
    const token = await signWithServerKey(ctx().config.dataDir, validClaims({ sub: 'leaver', name: 'Lee Leaver' }));
    expect((await getCurrentUser(`Bearer ${token}`)).statusCode).toBe(200);
    await ctx().app.db.updateTable('users').set({ is_active: 0 }).where('subject', '=', 'leaver').execute();
    await ctx().app.access.bump(ctx().app.db);
    expect((await getCurrentUser(`Bearer ${token}`)).statusCode).toBe(401);
  });

  it('issues refresh tokens, so the portal can renew silently', async () => {
    const tokens = await signIn(injectClient(ctx().app), {
      publicUrl: TEST_PUBLIC_URL,
      username: 'partner',
      password: 'datalab',
    });
    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await ctx().app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: { host: 'localhost:8080', 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token ?? '',
        client_id: 'datalab-portal',
      }).toString(),
    });
    expect(refreshed.statusCode).toBe(200);
    const renewed = refreshed.json<{ access_token: string }>().access_token;
    expect(renewed).not.toBe(tokens.access_token);
    expect(currentUser.parse((await getCurrentUser(`Bearer ${renewed}`)).json()).username).toBe('partner');
  });
});
