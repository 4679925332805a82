import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createLoggedTestApp, type TestApp } from '../../../test/support/app.ts';
import { buildPerson } from '../../../test/support/builders.ts';
import { buildPlace, createToken, withToken } from './test-world.ts';

// No Data Lab token ever reaches a log line: the app's own logger at debug level (a line per arriving request
// besides the completed ones), its output captured, while tokens are created, used well and badly (typos, revoked,
// in a query string, pasted into a path), revoked, and used on a route that fails with a 500; then the whole
// output and the application log are searched for every secret the test made.

describe('Data Lab tokens and the logs', () => {
  let t: TestApp & { output: () => string };

  beforeAll(async () => {
    // A route that fails with a 500 after authenticating: its error lines must not carry the token either.
    const extend = (instance: FastifyInstance) => {
      instance.get(
        '/api/test/boom',
        {
          config: { access: { signedIn: true } },
          onRequest: (request) => instance.authenticate(request).then(() => undefined),
        },
        async () => {
          throw new Error('boom');
        },
      );
    };
    t = await createLoggedTestApp('sqlite', {}, extend);
  });
  afterAll(async () => {
    await t.close();
  });

  it('writes no secret to the log output or the application log', async () => {
    const owner = await buildPerson(t);
    const place = await buildPlace(t, owner);
    const personal = await createToken(owner, { roles: [{ collectionUid: place.uid, role: 'Reader' }] });
    const collection = await createToken(owner, { kind: 'collection', collectionUid: place.uid });
    const secrets = [personal.secret, collection.secret];
    const asset = `/data/v1/${place.assetUid}`;

    expect((await withToken(t, personal.secret, 'GET', asset)).statusCode).toBe(200);
    expect((await withToken(t, collection.secret, 'POST', asset, {})).statusCode).toBe(200);
    const typo = `${personal.secret.slice(0, -1)}${personal.secret.endsWith('A') ? 'B' : 'A'}`;
    expect((await withToken(t, typo, 'GET', asset)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `${asset}?access_token=${personal.secret}` })).statusCode).toBe(
      400,
    );
    expect((await withToken(t, personal.secret, 'GET', `/data/v1/${collection.secret}`)).statusCode).toBe(404);
    expect((await withToken(t, personal.secret, 'GET', `/api/Token/${personal.secret}/UserDataRoles`)).statusCode).toBe(
      400,
    );
    expect((await withToken(t, personal.secret, 'GET', '/api/test/boom')).statusCode).toBe(500);
    expect((await owner.call('PUT', `/api/Token/${personal.id}/Revoke`)).statusCode).toBe(200);
    expect((await withToken(t, personal.secret, 'GET', asset)).statusCode).toBe(401);
    await t.app.tokenAuthentication.lastUsed.settled();

    const output = t.output();
    expect(output).toContain('request completed');
    expect(output).toContain('boom');
    const applicationLog = JSON.stringify(await t.app.db.selectFrom('application_logs').selectAll().execute());
    expect(applicationLog).toContain('token.create');
    for (const secret of [...secrets, typo]) {
      // The random body is what makes a token; neither it nor the whole secret may appear anywhere.
      for (const needle of [secret, secret.slice(4, 44)]) {
        expect(output).not.toContain(needle);
        expect(applicationLog).not.toContain(needle);
      }
    }
  });
});
