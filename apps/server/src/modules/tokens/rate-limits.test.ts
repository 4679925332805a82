import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { buildPerson, type Person } from '../../../test/support/builders.ts';
import { describeApp } from '../../../test/support/suite.ts';
import { buildPlace, createToken, withToken, type Place } from './test-world.ts';

// Rate limits of the calling layer (/data/v1): per user for OIDC callers and per token for Data Lab
// tokens, RATE_LIMIT_PER_MINUTE unless a data source sets its own, the IETF draft's RateLimit-Policy and RateLimit
// fields on every reply, and 429 with Retry-After and product §8's text past the limit.

const LIMIT = 3;

const fields = (response: LightMyRequestResponse) => ({
  policy: response.headers['ratelimit-policy'],
  now: response.headers['ratelimit'],
});

describeApp(
  'calling-layer rate limits',
  (context) => {
    let owner: Person;
    let place: Place;

    beforeAll(async () => {
      owner = await buildPerson(context());
      place = await buildPlace(context(), owner);
    });

    it('counts a caller’s calls, says so on every reply and answers 429 with Retry-After past the limit', async () => {
      const caller = await buildPerson(context());
      await owner.call('PUT', `/api/DataRole/${caller.id}/UserDataRoles`, { collectionUid: place.uid, role: 'Reader' });
      const replies = [];
      for (let i = 0; i < LIMIT; i += 1) replies.push(await caller.call('GET', `/data/v1/${place.assetUid}`));
      expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      for (const [index, reply] of replies.entries()) {
        expect(fields(reply).policy).toBe(`"default";q=${LIMIT};w=60`);
        expect(fields(reply).now).toMatch(new RegExp(`^"default";r=${LIMIT - 1 - index};t=([1-9]|[1-5][0-9]|60)$`));
      }
      const refused = await caller.call('GET', `/data/v1/${place.assetUid}`);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ status: 429, title: 'The rate limit has been exceeded for this call.' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(fields(refused)).toEqual({
        policy: `"default";q=${LIMIT};w=60`,
        now: expect.stringMatching(/^"default";r=0;t=\d+$/),
      });
      // The portal's management API is not counted here.
      expect((await caller.call('GET', '/api/Account/GetCurrentUser')).statusCode).toBe(200);
    });

    it('counts refused calls and the OpenAPI document in the same budget, with the fields on them too', async () => {
      const caller = await buildPerson(context());
      const missing = await caller.call('GET', '/data/v1/no-such-asset');
      expect(missing.statusCode).toBe(404);
      expect(fields(missing).now).toMatch(/^"default";r=2;t=\d+$/);
      const openapi = await caller.call('GET', '/data/v1/openapi.json');
      expect(openapi.statusCode).toBe(200);
      expect(fields(openapi).now).toMatch(/^"default";r=1;t=\d+$/);
    });

    it('gives each token its own budget, apart from its owner’s', async () => {
      const { secret } = await createToken(owner, { roles: [{ collectionUid: place.uid, role: 'Reader' }] });
      for (let i = 0; i < LIMIT; i += 1) await owner.call('GET', `/data/v1/${place.assetUid}`);
      expect((await owner.call('GET', `/data/v1/${place.assetUid}`)).statusCode).toBe(429);
      const byToken = await withToken(context(), secret, 'GET', `/data/v1/${place.assetUid}`);
      expect(byToken.statusCode).toBe(200);
      expect(fields(byToken).now).toMatch(/^"default";r=2;t=\d+$/);
    });

    it('applies a data source’s own limit to its calls, apart from the general budget', async () => {
      const t = context();
      const caller = await buildPerson(t);
      const strict = await buildPlace(t, owner, [[caller, 'Reader']]);
      await t.app.db
        .updateTable('data_sources')
        .set({ rate_limit_per_minute: 1 })
        .where('uid', '=', strict.assetUid)
        .execute();
      const first = await caller.call('GET', `/data/v1/${strict.assetUid}`);
      expect(first.statusCode).toBe(200);
      expect(fields(first)).toEqual({
        policy: '"data-source";q=1;w=60',
        now: expect.stringMatching(/^"data-source";r=0;t=\d+$/),
      });
      const second = await caller.call('GET', `/data/v1/${strict.assetUid}`);
      expect(second.statusCode).toBe(429);
      expect(second.headers['retry-after']).toBeDefined();
      // Other calls still draw on the caller's general budget, untouched by those two.
      const openapi = await caller.call('GET', '/data/v1/openapi.json');
      expect(fields(openapi).now).toMatch(new RegExp(`^"default";r=${LIMIT - 1};t=\\d+$`));
    });
  },
  { env: { RATE_LIMIT_PER_MINUTE: String(LIMIT) } },
);
