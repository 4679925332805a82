import { beforeAll, expect, it } from 'vitest';
import { token as tokenSchema, TOKEN_PATTERN_SOURCE } from '@datalab/contract/api/tokens';
import { INVALID_TOKEN } from '../../lib/errors.ts';
import { auditRecords, buildGroup, buildPerson, type Person } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';
import { withChecksum } from '../../../test/support/tokens.ts';
import { TOKEN_FAILURES_PER_MINUTE } from './authentication.service.ts';
import { buildPlace, buildWorld, createToken, expireToken, shape, withToken, type Place } from './test-world.ts';

// Data Lab tokens through HTTP (inject), on both metadata stores: their lifecycle, what they may call, the narrowing
// of a personal access token by its owner's current roles, identical refusals, and what a token may never do.

const DAY_MS = 86_400_000;
const targetOf = (record: { details: object }) => (record.details as { target?: { id?: unknown } }).target?.id;
const utcDate = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);

describeEachStore('Data Lab tokens', (context) => {
  let owner: Person;
  let reader: Person;
  let stranger: Person;
  let admin: Person;
  let first: Place;
  let second: Place;

  beforeAll(async () => {
    ({ owner, reader, stranger, admin, first, second } = await buildWorld(context()));
  });

  const rolesOn = (...places: [Place, string][]) => places.map(([place, role]) => ({ collectionUid: place.uid, role }));
  const call = (secret: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    withToken(context(), secret, method, url, payload);
  const callAsset = (secret: string, place: Place) => call(secret, 'GET', `/data/v1/${place.assetUid}`);

  it('creates a personal access token, shows its secret once and never again', async () => {
    const created = await createToken(owner, { name: 'Nightly export', roles: rolesOn([first, 'Reader']) });
    expect(created.secret).toMatch(/^dlp_[0-9A-Za-z]{46}$/);
    expect(created.secret).toMatch(new RegExp(TOKEN_PATTERN_SOURCE));
    expect(created).toMatchObject({ kind: 'personal', name: 'Nightly export', status: 'Active' });
    expect(created.roles).toEqual([{ collection: expect.objectContaining({ uid: first.uid }), role: 'Reader' }]);
    // The default expiry: TOKEN_DEFAULT_DAYS (30) from today, at 00:00 UTC.
    expect(created.expiresAt).toBe(`${utcDate(30)}T00:00:00.000Z`);

    const read = await owner.call('GET', `/api/Token?id=${created.id}`);
    expect(read.statusCode).toBe(200);
    expect(() => tokenSchema.strict().parse(read.json())).not.toThrow();
    expect(read.body).not.toContain(created.secret);
    expect(read.json()).toMatchObject({ hint: created.secret.slice(0, 10) + '…', owner: { id: owner.id } });
    const mine = await owner.call('GET', '/api/Token/GetAllPersonalAccessTokens');
    expect(mine.json<{ id: number }[]>().map((t) => t.id)).toContain(created.id);
    expect(mine.body).not.toContain(created.secret);

    const stored = await context()
      .app.db.selectFrom('tokens')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(created.secret.slice(4, 44));
    expect(stored.secret_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('makes collection tokens for a collection’s Owners only, Reader on it alone', async () => {
    const body = { kind: 'collection' as const, name: 'Partner feed', collectionUid: first.uid };
    expect((await reader.call('POST', '/api/Token', body)).statusCode).toBe(403);
    expect((await stranger.call('POST', '/api/Token', body)).statusCode).toBe(404);
    // An administrator sees every collection but gets no data role from a token either.
    expect((await admin.call('POST', '/api/Token', body)).statusCode).toBe(403);
    const created = await createToken(owner, body);
    expect(created.secret).toMatch(/^dlc_[0-9A-Za-z]{46}$/);
    expect(created).toMatchObject({ kind: 'collection', collection: { uid: first.uid } });
    expect(created.roles).toEqual([{ collection: expect.objectContaining({ uid: first.uid }), role: 'Reader' }]);

    const listed = await owner.call('GET', `/api/Token/GetByCollection?collectionUid=${first.uid}`);
    expect(listed.json<{ id: number }[]>().map((t) => t.id)).toContain(created.id);
    expect((await reader.call('GET', `/api/Token/GetByCollection?collectionUid=${first.uid}`)).statusCode).toBe(403);
    expect((await admin.call('GET', `/api/Token/GetByCollection?collectionUid=${first.uid}`)).statusCode).toBe(200);

    expect((await callAsset(created.secret, first)).statusCode).toBe(200);
    expect((await callAsset(created.secret, second)).statusCode).toBe(404);
    const collections = await call(created.secret, 'GET', '/api/DataSourceCollection/GetAll');
    expect(collections.json<{ items: { uid: string }[] }>().items.map((c) => c.uid)).toEqual([first.uid]);
    expect((await call(created.secret, 'GET', `/api/DataSourceCollection/GetByUid/${second.uid}`)).statusCode).toBe(
      404,
    );
    const me = await call(created.secret, 'GET', '/api/Account/GetCurrentUser');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ permissions: { canManageUsers: false } });
  });

  it('lets a personal access token call /data/v1 and read /api within its roles', async () => {
    const { secret } = await createToken(owner, { roles: rolesOn([first, 'Reader']) });
    const data = await callAsset(secret, first);
    expect(data.statusCode).toBe(200);
    expect(data.json<{ rows: unknown[] }>().rows).toEqual([
      { code: 'AS', name: 'Asia' },
      { code: 'EU', name: 'Europe' },
    ]);
    // The owner is Owner of both collections; the token reaches only the one it names.
    expect((await callAsset(secret, second)).statusCode).toBe(404);
    const collections = await call(secret, 'GET', '/api/DataSourceCollection/GetAll');
    expect(collections.json<{ items: { uid: string; myRole: string }[] }>().items).toEqual([
      expect.objectContaining({ uid: first.uid, myRole: 'Reader' }),
    ]);
    const openapi = await call(secret, 'GET', '/data/v1/openapi.json');
    expect(Object.keys(openapi.json<{ paths: object }>().paths)).toEqual([`/data/v1/${first.assetUid}`]);
    const me = await call(secret, 'GET', '/api/Account/GetCurrentUser');
    expect(me.json()).toMatchObject({ id: owner.id });
  });

  it('acts with the weaker of its own role and its owner’s: a Reader token of an Owner cannot manage', async () => {
    const { secret } = await createToken(owner, { roles: rolesOn([first, 'Reader']) });
    const roles = await call(secret, 'GET', `/api/DataRole/${first.uid}/DataSourceCollectionDataRoles`);
    expect(roles.statusCode).toBe(403);
    expect((await owner.call('GET', `/api/DataRole/${first.uid}/DataSourceCollectionDataRoles`)).statusCode).toBe(200);
    const edit = await call(secret, 'DELETE', `/api/SqlDataSource?uid=${first.assetUid}`);
    expect(edit.statusCode).toBe(403);
  });

  it('loses what its owner loses, at the next call: a role, a group, the account', async () => {
    const t = context();
    const analyst = await buildPerson(t);
    await owner.call('PUT', `/api/DataRole/${analyst.id}/UserDataRoles`, { collectionUid: first.uid, role: 'Editor' });
    const group = await buildGroup(t, admin, { members: [analyst] });
    await owner.call('PUT', `/api/DataRole/${group.id}/UserGroupDataRoles`, {
      collectionUid: second.uid,
      role: 'Reader',
    });
    // Owner asked on the first: more than the analyst holds.
    const tooMuch = await analyst.call('POST', '/api/Token', {
      kind: 'personal',
      name: 'Too much',
      roles: rolesOn([first, 'Owner']),
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toMatchObject({ errors: { 'roles.0.role': [expect.stringContaining('Owner')] } });
    const created = await createToken(analyst, { roles: rolesOn([first, 'Editor'], [second, 'Reader']) });
    expect((await callAsset(created.secret, first)).statusCode).toBe(200);
    expect((await callAsset(created.secret, second)).statusCode).toBe(200);

    const worth = await analyst.call('GET', `/api/Token/${created.id}/UserDataRoles`);
    expect(worth.json<{ roles: { role: string; effectiveRole: string }[] }>().roles).toEqual(
      expect.arrayContaining([expect.objectContaining({ role: 'Editor', effectiveRole: 'Editor' })]),
    );
    // The owner drops to Reader: the token's Editor is worth Reader now.
    await owner.call('PUT', `/api/DataRole/${analyst.id}/UserDataRoles`, { collectionUid: first.uid, role: 'Reader' });
    const narrowed = await analyst.call('GET', `/api/Token/${created.id}/UserDataRoles`);
    expect(narrowed.json<{ roles: { collection: { uid: string }; effectiveRole: string }[] }>().roles).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ collection: expect.objectContaining({ uid: first.uid }), effectiveRole: 'Reader' }),
      ]),
    );
    expect((await call(created.secret, 'DELETE', `/api/SqlDataSource?uid=${first.assetUid}`)).statusCode).toBe(403);

    await owner.call('PUT', `/api/DataRole/${analyst.id}/UserDataRoles`, { collectionUid: first.uid, role: null });
    expect((await callAsset(created.secret, first)).statusCode).toBe(404);
    await admin.call('DELETE', `/api/UserGroup/${group.id}/User/${analyst.id}`);
    expect((await callAsset(created.secret, second)).statusCode).toBe(404);
    await admin.call('PUT', `/api/User/${analyst.id}/Active`, { active: false });
    expect((await call(created.secret, 'GET', '/api/Account/GetCurrentUser')).statusCode).toBe(401);
  });

  it('refuses revoked, expired, unknown and malformed tokens with one and the same 401', async () => {
    const t = context();
    const revoked = await createToken(owner, { roles: rolesOn([first, 'Reader']) });
    const expired = await createToken(owner, { roles: rolesOn([first, 'Reader']) });
    const live = await createToken(owner, { roles: rolesOn([first, 'Reader']) });
    expect((await callAsset(revoked.secret, first)).statusCode).toBe(200);
    expect((await callAsset(expired.secret, first)).statusCode).toBe(200);

    const revocation = await owner.call('PUT', `/api/Token/${revoked.id}/Revoke`);
    expect(revocation.json()).toMatchObject({ status: 'Revoked', revokedBy: { id: owner.id } });
    // Revoking twice is harmless.
    expect((await owner.call('PUT', `/api/Token/${revoked.id}/Revoke`)).json()).toMatchObject({ status: 'Revoked' });
    await expireToken(t, expired.id);
    expect((await owner.call('GET', `/api/Token?id=${expired.id}`)).json()).toMatchObject({ status: 'Expired' });

    const body = revoked.secret.slice(4, 44);
    const typo = `${revoked.secret.slice(0, 10)}${revoked.secret[10] === 'a' ? 'b' : 'a'}${revoked.secret.slice(11)}`;
    const unknownButWellFormed = `dlp_${'0'.repeat(40)}${'0'.repeat(6)}`;
    // The right lookup id and a valid checksum, the wrong secret: found, and refused by the hash. The checksum is
    // the one the server gives its own tokens.
    expect(withChecksum(live.secret.slice(0, 44))).toBe(live.secret);
    const forged = withChecksum(`dlp_${revoked.secret.slice(4, 16)}${'A'.repeat(28)}`);
    const forgedLive = withChecksum(`dlp_${live.secret.slice(4, 16)}${'A'.repeat(28)}`);
    const refusals = await Promise.all(
      [revoked.secret, expired.secret, typo, unknownButWellFormed, forged, forgedLive, `dlp_${body}`, 'dlc_short'].map(
        (secret) => callAsset(secret, first),
      ),
    );
    const jwt = await call('not.a.jwt', 'GET', `/data/v1/${first.assetUid}`);
    const shapes = [...refusals, jwt].map(shape);
    for (const one of shapes) expect(one).toEqual(shapes[0]);
    expect(shapes[0]).toMatchObject({ status: 401, ...INVALID_TOKEN });
  });

  it('slows a flood of wrong tokens from one address without locking out a valid token from it', async () => {
    const t = context();
    const { secret } = await createToken(owner, { roles: rolesOn([first, 'Reader']) });
    const remoteAddress = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const attempt = (credential: string) =>
      t.app.inject({
        method: 'GET',
        url: `/data/v1/${first.assetUid}`,
        remoteAddress,
        headers: { authorization: `Bearer ${credential}` },
      });
    const wrong = `dlp_${'1'.repeat(46)}`;
    const statuses = [];
    for (let i = 0; i < TOKEN_FAILURES_PER_MINUTE; i += 1) statuses.push((await attempt(wrong)).statusCode);
    expect(new Set(statuses)).toEqual(new Set([401]));
    const slowed = await attempt(wrong);
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBeDefined();
    expect((await attempt(secret)).statusCode).toBe(200);
  });

  it('never lets a token create, widen or revoke tokens, nor change roles, users, groups or collections', async () => {
    const { secret, id } = await createToken(owner, { roles: rolesOn([first, 'Owner'], [second, 'Owner']) });
    const other = await createToken(owner, { roles: rolesOn([second, 'Reader']) });
    const refused = [
      await call(secret, 'POST', '/api/Token', { kind: 'personal', name: 'minted', roles: rolesOn([first, 'Reader']) }),
      await call(secret, 'POST', '/api/Token', { kind: 'collection', name: 'minted', collectionUid: first.uid }),
      await call(secret, 'PUT', `/api/Token/${id}/UserDataRoles`, { roles: rolesOn([first, 'Owner']) }),
      await call(secret, 'PUT', `/api/Token/${other.id}/Revoke`),
      await call(secret, 'PUT', `/api/DataRole/${stranger.id}/UserDataRoles`, {
        collectionUid: first.uid,
        role: 'Reader',
      }),
      await call(secret, 'PUT', '/api/DataSourceCollection', { uid: first.uid, name: 'Renamed', description: '' }),
      await call(secret, 'DELETE', `/api/DataSourceCollection?uid=${second.uid}`),
    ];
    for (const response of refused) {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json()).toMatchObject({
        title: 'Unauthorised',
        detail: 'You are not authorised to perform this action',
      });
    }
    expect((await owner.call('GET', `/api/Token?id=${other.id}`)).json()).toMatchObject({ status: 'Active' });
  });

  it('gives an administrator’s token no system permission', async () => {
    const t = context();
    const place = await buildPlace(t, admin);
    const { secret } = await createToken(admin, { roles: rolesOn([place, 'Owner']) });
    expect((await call(secret, 'GET', '/api/User')).statusCode).toBe(403);
    expect((await call(secret, 'POST', '/api/UserGroup', { name: 'By token' })).statusCode).toBe(403);
    expect((await call(secret, 'PUT', `/api/User/${stranger.id}/Active`, { active: false })).statusCode).toBe(403);
    expect(
      (await call(secret, 'GET', '/api/Token/GetAll')).json<{ items: { id: number }[] }>().items.length,
    ).toBeLessThan((await admin.call('GET', '/api/Token/GetAll')).json<{ totalCount: number }>().totalCount);
  });

  it('refuses a token in the URL and tells where it belongs', async () => {
    const { secret } = await createToken(owner, { roles: rolesOn([first, 'Reader']) });
    for (const url of [
      `/data/v1/${first.assetUid}?access_token=${secret}`,
      `/data/v1/${first.assetUid}?token=anything`,
      `/data/v1/${first.assetUid}?region=${secret}`,
      `/api/Account/GetCurrentUser?access_token=abc`,
    ]) {
      const response = await call(secret, 'GET', url);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({ title: 'Send the token in the Authorization header, not in the URL' });
      expect(response.body).not.toContain(secret);
    }
  });

  it('revokes a collection’s tokens when the collection is deleted, in the same transaction', async () => {
    const t = context();
    const doomed = await buildPlace(t, owner);
    const collectionToken = await createToken(owner, { kind: 'collection', collectionUid: doomed.uid });
    const personal = await createToken(owner, { roles: rolesOn([doomed, 'Reader'], [first, 'Reader']) });
    expect((await callAsset(collectionToken.secret, doomed)).statusCode).toBe(200);
    expect((await owner.call('DELETE', `/api/DataSourceCollection?uid=${doomed.uid}`)).statusCode).toBe(200);
    expect((await call(collectionToken.secret, 'GET', '/api/Account/GetCurrentUser')).statusCode).toBe(401);
    const after = await owner.call('GET', `/api/Token?id=${collectionToken.id}`);
    expect(after.json()).toMatchObject({
      status: 'Revoked',
      collection: null,
      roles: [],
      revokedReason: 'collectionDeleted',
    });
    // A personal token keeps its other roles.
    expect((await owner.call('GET', `/api/Token?id=${personal.id}`)).json()).toMatchObject({
      status: 'Active',
      roles: [expect.objectContaining({ collection: expect.objectContaining({ uid: first.uid }) })],
    });
    const deletion = (await auditRecords(t, 'collection.delete')).find((r) => targetOf(r) === doomed.uid);
    expect(deletion?.details.after).toEqual({ revokedTokens: [collectionToken.id], downloadsRemoved: 0 });
  });

  it('refuses bad input with product §5 messages: expiry, roles, collections, names', async () => {
    const post = (body: object) => owner.call('POST', '/api/Token', { kind: 'personal', name: 'Bad', ...body });
    const roles = rolesOn([first, 'Reader']);
    expect((await post({ roles, expiresOn: utcDate(0) })).json()).toMatchObject({
      errors: { expiresOn: ['Expiry must be a date after today'] },
    });
    expect((await post({ roles, expiresOn: utcDate(366) })).json()).toMatchObject({
      errors: { expiresOn: ['Expiry must be at most 365 days from today'] },
    });
    expect((await post({ roles, expiresOn: null })).json()).toMatchObject({
      errors: { expiresOn: ['Expiry is required'] },
    });
    expect((await post({})).json()).toMatchObject({ errors: { roles: ['At least one Role is required'] } });
    const hidden = await stranger.call('POST', '/api/Token', { kind: 'personal', name: 'x', roles });
    expect(hidden.json()).toMatchObject({
      errors: { 'roles.0.collectionUid': [`Collection with id ${first.uid} does not exist`] },
    });
    expect((await post({ roles: rolesOn([first, 'Reader'], [first, 'Reader']) })).statusCode).toBe(400);
    const ok = await createToken(owner, { name: 'Unique name', roles, expiresOn: utcDate(365) });
    expect(ok.expiresAt).toBe(`${utcDate(365)}T00:00:00.000Z`);
    const clash = await owner.call('POST', '/api/Token', { kind: 'personal', name: 'unique NAME', roles });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ title: 'Token with name unique NAME already exists' });
    // Revoked, the name is free again.
    await owner.call('PUT', `/api/Token/${ok.id}/Revoke`);
    expect((await owner.call('POST', '/api/Token', { kind: 'personal', name: 'Unique name', roles })).statusCode).toBe(
      201,
    );
  });

  it('shows tokens only to who may manage them, and lets only the owner change a token’s roles', async () => {
    const created = await createToken(owner, { roles: rolesOn([first, 'Owner']) });
    expect((await stranger.call('GET', `/api/Token?id=${created.id}`)).statusCode).toBe(404);
    expect((await reader.call('GET', `/api/Token/${created.id}/UserDataRoles`)).statusCode).toBe(404);
    expect((await admin.call('GET', `/api/Token?id=${created.id}`)).statusCode).toBe(200);
    expect(
      (await admin.call('PUT', `/api/Token/${created.id}/UserDataRoles`, { roles: rolesOn([first, 'Reader']) }))
        .statusCode,
    ).toBe(403);
    const changed = await owner.call('PUT', `/api/Token/${created.id}/UserDataRoles`, {
      roles: rolesOn([first, 'Reader'], [second, 'Editor']),
    });
    expect(changed.statusCode).toBe(200);
    expect(
      changed
        .json<{ roles: { role: string }[] }>()
        .roles.map((r) => r.role)
        .sort(),
    ).toEqual(['Editor', 'Reader']);
    const [record] = (await auditRecords(context(), 'token.roles')).slice(-1);
    expect(record?.details.before).toEqual([{ collection: first.uid, role: 'Owner' }]);

    const all = await owner.call('GET', '/api/Token/GetAll?pageSize=200');
    const readerAll = await reader.call('GET', '/api/Token/GetAll');
    expect(all.json<{ items: { id: number }[] }>().items.map((t) => t.id)).toContain(created.id);
    expect(readerAll.json<{ items: { id: number }[] }>().items.map((t) => t.id)).not.toContain(created.id);
    const revokedOnly = await owner.call('GET', '/api/Token/GetAll?status=Revoked&pageSize=200');
    expect(revokedOnly.json<{ items: { status: string }[] }>().items.every((t) => t.status === 'Revoked')).toBe(true);
  });

  it('audits creation, role changes and revocation without the secret, and records the last use', async () => {
    const t = context();
    const created = await createToken(owner, { roles: rolesOn([first, 'Reader']) });
    await callAsset(created.secret, first);
    await t.app.tokenAuthentication.lastUsed.settled();
    const read = await owner.call('GET', `/api/Token?id=${created.id}`);
    expect(read.json()).toMatchObject({ lastUsedAddress: '127.0.0.1' });
    expect(read.json<{ lastUsedAt: string | null }>().lastUsedAt).not.toBeNull();
    await owner.call('PUT', `/api/Token/${created.id}/Revoke`);
    const creation = (await auditRecords(t, 'token.create')).find((r) => targetOf(r) === created.id);
    expect(creation?.details.after).toMatchObject({
      kind: 'personal',
      roles: [{ collection: first.uid, role: 'Reader' }],
      hint: created.secret.slice(0, 10) + '…',
    });
    expect((await auditRecords(t, 'token.revoke')).filter((r) => targetOf(r) === created.id)).toHaveLength(1);
    const logs = await t.app.db.selectFrom('application_logs').select(['message', 'details']).execute();
    expect(JSON.stringify(logs)).not.toContain(created.secret.slice(4, 44));
  });
});
