import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAK_REPORT_ENTRIES_MAX, LEAK_REPORT_RECEIVED } from '@datalab/contract/api/tokens';
import { INVALID_TOKEN } from '../../lib/errors.ts';
import { createLoggedTestApp, type TestApp } from '../../../test/support/app.ts';
import { auditRecords, buildPerson, type Person } from '../../../test/support/builders.ts';
import { isPostgresAvailable } from '../../../test/support/stores.ts';
import { withChecksum } from '../../../test/support/tokens.ts';
import { LEAK_REPORTS_PER_MINUTE } from './routes.ts';
import { buildPlace, createToken, expireToken, withToken, type Place } from './test-world.ts';

// Leak reports (POST /api/Token/Leaked) through inject, on both metadata stores, with the app's own log output
// captured at debug level: a reported secret revokes its token at once (the next call is 401), the owner's list says
// it was reported, the audit and the application log record it without the secret, the reply is the same whatever
// was sent, one token's secret never revokes another, and each address gets a small budget.

const postgres = await isPostgresAvailable();

let addresses = 0;
/** A fresh reporter address, so each test's reports draw on their own budget. */
const newAddress = () => `10.77.${Math.floor((addresses += 1) / 250)}.${addresses % 250}`;

for (const store of ['sqlite', 'postgres'] as const) {
  (store === 'sqlite' || postgres ? describe : describe.skip)(`leaked token reports [${store}]`, () => {
    let t: TestApp & { output: () => string };
    let owner: Person;
    let place: Place;

    beforeAll(async () => {
      t = await createLoggedTestApp(store);
      owner = await buildPerson(t);
      place = await buildPlace(t, owner);
    });
    afterAll(async () => {
      await t?.close();
    });

    const report = (payload: unknown, remoteAddress = newAddress()) =>
      t.app.inject({
        method: 'POST',
        url: '/api/Token/Leaked',
        remoteAddress,
        ...(typeof payload === 'string'
          ? { payload, headers: { 'content-type': 'application/json' } }
          : { payload: payload as object }),
      });
    const personal = () => createToken(owner, { roles: [{ collectionUid: place.uid, role: 'Reader' }] });
    const callAsset = (secret: string) => withToken(t, secret, 'GET', `/data/v1/${place.assetUid}`);
    const tokenOf = async (id: number) =>
      (await owner.call('GET', `/api/Token?id=${id}`)).json<{
        status: string;
        revokedReason: string | null;
        revokedBy: unknown;
      }>();
    const expectReceived = (response: LightMyRequestResponse) => {
      expect(response.statusCode, response.body).toBe(202);
      expect(response.json()).toEqual({ message: LEAK_REPORT_RECEIVED });
    };

    it('revokes a reported personal access token: the very next call is 401 and the list says why', async () => {
      const token = await personal();
      expect((await callAsset(token.secret)).statusCode).toBe(200);

      // No sign-in: whoever found it reports it.
      expectReceived(await report({ secrets: [token.secret] }));

      const next = await callAsset(token.secret);
      expect(next.statusCode).toBe(401);
      expect(next.json()).toMatchObject({ title: INVALID_TOKEN.title });
      expect((await withToken(t, token.secret, 'GET', '/api/Account/GetCurrentUser')).statusCode).toBe(401);
      expect(await tokenOf(token.id)).toMatchObject({ status: 'Revoked', revokedReason: 'leaked', revokedBy: null });
      const listed = await owner.call('GET', '/api/Token/GetAll?status=Revoked&pageSize=200');
      expect(listed.json<{ items: { id: number; revokedReason: string | null }[] }>().items).toContainEqual(
        expect.objectContaining({ id: token.id, revokedReason: 'leaked' }),
      );
      const mine = await owner.call('GET', '/api/Token/GetAllPersonalAccessTokens');
      expect(mine.json<{ id: number; revokedReason: string | null }[]>()).toContainEqual(
        expect.objectContaining({ id: token.id, revokedReason: 'leaked' }),
      );
      // The owner's other tokens are untouched, and a revocation by a person says so.
      const other = await personal();
      expect((await callAsset(other.secret)).statusCode).toBe(200);
      await owner.call('PUT', `/api/Token/${other.id}/Revoke`);
      expect(await tokenOf(other.id)).toMatchObject({ revokedReason: 'revoked', revokedBy: { id: owner.id } });
    });

    it('records the leak in the audit and the application log, and no secret anywhere in the logs', async () => {
      const token = await personal();
      const reply = await report({ secrets: [token.secret] });
      expectReceived(reply);
      // Reporting it again changes nothing and records nothing more.
      expectReceived(await report({ secrets: [token.secret] }));

      const audits = (await auditRecords(t, 'token.leaked')).filter(
        (record) => (record.details as { target?: { id?: number } }).target?.id === token.id,
      );
      expect(audits).toHaveLength(1);
      expect(audits[0]).toMatchObject({ user_id: null, request_id: reply.headers['x-request-id'] });
      expect(audits[0]?.details).toMatchObject({
        actor: null,
        after: { status: 'Revoked', reason: 'leaked', hint: token.secret.slice(0, 10) + '…' },
      });
      const warnings = await t.app.db
        .selectFrom('application_logs')
        .selectAll()
        .where('category', '=', 'security')
        .where('request_id', '=', String(reply.headers['x-request-id']))
        .execute();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 'warn' });
      expect(JSON.parse(warnings[0]?.details ?? '{}')).toMatchObject({ tokenId: token.id, ownerUserId: owner.id });

      const output = t.output();
      expect(output).toContain('leak report: tokens revoked');
      expect(output).toContain(`"id":${token.id}`);
      const applicationLog = JSON.stringify(await t.app.db.selectFrom('application_logs').selectAll().execute());
      for (const needle of [token.secret, token.secret.slice(4, 44)]) {
        expect(output).not.toContain(needle);
        expect(applicationLog).not.toContain(needle);
      }
    });

    it('answers the same 202 whatever it is sent: unknown, garbage, revoked, expired or live', async () => {
      const revoked = await personal();
      await owner.call('PUT', `/api/Token/${revoked.id}/Revoke`);
      const expired = await personal();
      await expireToken(t, expired.id);
      const live = await personal();
      const typo = `${live.secret.slice(0, 20)}${live.secret[20] === 'a' ? 'b' : 'a'}${live.secret.slice(21)}`;
      const sent = [
        [`dlp_${'0'.repeat(46)}`],
        ['not a token at all', 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB'],
        [typo],
        [revoked.secret],
        [expired.secret],
        [live.secret],
      ];
      const replies = [];
      for (const secrets of sent) replies.push(await report({ secrets }));
      for (const reply of replies) expectReceived(reply);
      // Status, headers and body alike, but for the request's own id and the date.
      const shapes = replies.map(({ statusCode, body, headers }) => {
        const { 'x-request-id': _id, date: _date, ...rest } = headers;
        return JSON.stringify({ statusCode, body, headers: rest });
      });
      expect(new Set(shapes).size).toBe(1);
      expect(await tokenOf(revoked.id)).toMatchObject({ revokedReason: 'revoked' });
      expect(await tokenOf(expired.id)).toMatchObject({ status: 'Expired', revokedReason: null });
      expect(await tokenOf(live.id)).toMatchObject({ status: 'Revoked', revokedReason: 'leaked' });
    });

    it('never revokes a token with another token’s secret, nor with a forged one', async () => {
      const target = await personal();
      const bystander = await personal();
      const collectionToken = await createToken(owner, { kind: 'collection', collectionUid: place.uid });
      // The target's lookup id with the rest of the bystander's secret, and a valid checksum: found, refused by the
      // hash. The collection token's body under the other prefix: a valid checksum, the wrong kind and hash.
      const forged = withChecksum(`dlp_${target.secret.slice(4, 16)}${bystander.secret.slice(16, 44)}`);
      const otherKind = withChecksum(`dlp_${collectionToken.secret.slice(4, 44)}`);
      expectReceived(await report({ secrets: [forged, otherKind] }));
      expect(await tokenOf(target.id)).toMatchObject({ status: 'Active' });
      expect(await tokenOf(bystander.id)).toMatchObject({ status: 'Active' });
      expect(await tokenOf(collectionToken.id)).toMatchObject({ status: 'Active' });

      expectReceived(await report({ secrets: [bystander.secret] }));
      expect(await tokenOf(bystander.id)).toMatchObject({ status: 'Revoked', revokedReason: 'leaked' });
      expect(await tokenOf(target.id)).toMatchObject({ status: 'Active' });
      expect((await callAsset(target.secret)).statusCode).toBe(200);
      expect((await callAsset(collectionToken.secret)).statusCode).toBe(200);
    });

    it('finds secrets inside pasted lines and revokes a collection token for its Owners to see', async () => {
      const collectionToken = await createToken(owner, { kind: 'collection', collectionUid: place.uid });
      const token = await personal();
      expectReceived(
        await report({ secrets: [`export DATALAB_TOKEN=${collectionToken.secret}`, `"Bearer ${token.secret}",`] }),
      );
      expect((await callAsset(collectionToken.secret)).statusCode).toBe(401);
      expect((await callAsset(token.secret)).statusCode).toBe(401);
      const listed = await owner.call('GET', `/api/Token/GetByCollection?collectionUid=${place.uid}`);
      expect(listed.json<{ id: number }[]>()).toContainEqual(
        expect.objectContaining({ id: collectionToken.id, status: 'Revoked', revokedReason: 'leaked' }),
      );
    });

    it('gives each address a few reports a minute: 429 with product §8’s text and Retry-After past them', async () => {
      const address = newAddress();
      for (let i = 0; i < LEAK_REPORTS_PER_MINUTE; i += 1) {
        expectReceived(await report({ secrets: [`dlp_${String(i).padStart(46, '0')}`] }, address));
      }
      const refused = await report({ secrets: ['dlp_x'] }, address);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ status: 429, title: 'The rate limit has been exceeded for this call.' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // Refused before the body is read: even a malformed one counts and gets the 429.
      expect((await report('{', address)).statusCode).toBe(429);
      // Other addresses are not slowed.
      expectReceived(await report({ secrets: ['dlp_x'] }));
    });

    it('refuses bad input with a 400 that does not echo what was sent', async () => {
      const token = await personal();
      const malformed = await report(`{"secrets": ["${token.secret}"`);
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toMatchObject({ errors: { body: ['Malformed JSON'] } });
      expect(malformed.body).not.toContain(token.secret.slice(4, 44));
      const empty = await report({ secrets: [] });
      expect(empty.json()).toMatchObject({ status: 400, errors: { secrets: ['At least one Secret is required'] } });
      const tooMany = await report({ secrets: Array.from({ length: LEAK_REPORT_ENTRIES_MAX + 1 }, () => 'x') });
      expect(tooMany.statusCode).toBe(400);
      const tooLong = await report({ secrets: [`${token.secret}${' x'.repeat(100)}`] });
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.body).not.toContain(token.secret.slice(4, 44));
      expect((await report({ secrets: ['x'.repeat(200)], padding: 'y'.repeat(20_000) })).statusCode).toBe(413);
      // None of those revoked anything.
      expect(await tokenOf(token.id)).toMatchObject({ status: 'Active' });
    });
  });
}
