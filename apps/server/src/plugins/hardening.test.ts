import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { problem, validationProblem } from '@datalab/contract/errors';
import { textMessages } from '@datalab/contract/text';
import { texts } from '@datalab/contract/texts';
import { CLIENT_ERROR_BODY_LIMIT, CLIENT_ERRORS_PER_MINUTE } from '../modules/application-logs/routes.ts';
import { hashTokenId } from '../oidc/adapter.ts';
import { TEST_PUBLIC_URL } from '../../test/support/app.ts';
import { injectClient } from '../../test/support/http.ts';
import { freePort } from '../../test/support/ports.ts';
import { signIn } from '../../test/support/sign-in.ts';
import { describeEachStore } from '../../test/support/suite.ts';

// The hardening findings, each through the public surface, on both stores.

const WEB_DIST = mkdtempSync(join(tmpdir(), 'datalab-web-dist-'));
afterAll(() => rmSync(WEB_DIST, { recursive: true, force: true }));
writeFileSync(
  join(WEB_DIST, 'index.html'),
  '<!doctype html><title>Data Lab</title><style nonce="__CSP_NONCE__"></style>',
);

/** Sends raw bytes to a real port and reads the answer (inject does not go through Node's HTTP parser). */
async function rawRequest(port: number, head: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1]);
      resolve({ status, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
  });
}

describeEachStore(
  'hardening',
  (ctx, store) => {
    const bearer = async (who = 'admin') => ({ authorization: `Bearer ${await ctx().tokenFor(who)}` });

    it('answers every /api and /data reply with Cache-Control: no-store, errors included', async () => {
      const replies = [
        await ctx().app.inject({ method: 'GET', url: '/api/DataSourceCollection/GetAll', headers: await bearer() }),
        await ctx().app.inject({ method: 'GET', url: '/api/DataSourceCollection/GetAll' }),
        await ctx().app.inject({ method: 'GET', url: '/api/No/Such/Thing' }),
        await ctx().app.inject({ method: 'GET', url: '/api/docs' }),
        await ctx().app.inject({ method: 'GET', url: '/data/anything' }),
      ];
      expect(replies.map((r) => r.statusCode)).toEqual([200, 401, 404, 200, 404]);
      for (const reply of replies) expect(reply.headers['cache-control']).toBe('no-store');
    });

    it('serves /api/docs under the portal CSP, without an outside validator', async () => {
      const page = await ctx().app.inject({ method: 'GET', url: '/api/docs' });
      const portal = await ctx().app.inject({ method: 'GET', url: '/health/live' });
      expect(page.headers['content-security-policy']).toBe(portal.headers['content-security-policy']);
      expect(String(page.headers['content-security-policy'])).not.toMatch(/unsafe-inline|https:|validator/);
      expect(page.body).not.toMatch(/<script>|<style>/);
      const initializer = await ctx().app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
      expect(initializer.statusCode).toBe(200);
      expect(initializer.body).toMatch(/validatorUrl: null/);
      expect(initializer.body).not.toContain('validator.swagger.io');
    });

    it('caps the size of a client error report with 413', async () => {
      const response = await ctx().app.inject({
        method: 'POST',
        url: '/api/ApplicationLog/ClientErrors',
        headers: { ...(await bearer('analyst')), 'content-type': 'application/json' },
        payload: JSON.stringify({ message: 'x', path: '/', stack: 'y'.repeat(CLIENT_ERROR_BODY_LIMIT) }),
        remoteAddress: '10.1.0.1',
      });
      expect(response.statusCode).toBe(413);
      expect(problem.parse(response.json()).status).toBe(413);
    });

    it('throttles client error reports per address with 429, the product text and Retry-After', async () => {
      const report = async (remoteAddress: string) =>
        ctx().app.inject({
          method: 'POST',
          url: '/api/ApplicationLog/ClientErrors',
          headers: { ...(await bearer('analyst')), 'content-type': 'application/json' },
          payload: JSON.stringify({ message: 'Render failed', path: '/' }),
          remoteAddress,
        });
      for (let i = 0; i < CLIENT_ERRORS_PER_MINUTE; i += 1) expect((await report('10.1.0.2')).statusCode).toBe(202);
      const refused = await report('10.1.0.2');
      expect(refused.statusCode).toBe(429);
      expect(problem.parse(refused.json()).title).toBe(texts.tooManyRequests);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await report('10.1.0.3')).statusCode).toBe(202);
    });

    it.each([
      ['a NUL in a name', { name: 'Sales\u0000', description: '' }, 'name', textMessages.controlCharacter],
      [
        'a NUL in a description',
        { name: 'Ok name', description: 'a\u0000b' },
        'description',
        textMessages.controlCharacter,
      ],
      ['a line break in a name', { name: 'two\nlines', description: '' }, 'name', textMessages.controlCharacter],
      [
        'a right-to-left override in a name',
        { name: 'invoice\u202Egnp.exe', description: '' },
        'name',
        textMessages.invisibleCharacter,
      ],
      [
        'a zero-width space in a name',
        { name: 'Sa\u200Bles', description: '' },
        'name',
        textMessages.invisibleCharacter,
      ],
    ])('answers %s with 400', async (_name, payload, field, message) => {
      const response = await ctx().app.inject({
        method: 'POST',
        url: '/api/DataSourceCollection',
        headers: await bearer(),
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(validationProblem.parse(response.json()).errors[field]).toContain(message);
    });

    it('answers a NUL in a group name, a search and a path id with 400', async () => {
      const group = await ctx().app.inject({
        method: 'POST',
        url: '/api/UserGroup',
        headers: await bearer(),
        payload: { name: 'G\u0000', description: '' },
      });
      expect(group.statusCode).toBe(400);
      const search = await ctx().app.inject({
        method: 'GET',
        url: '/api/DataSourceCollection/GetAll?search=a%00b',
        headers: await bearer(),
      });
      expect(search.statusCode).toBe(400);
      const byUid = await ctx().app.inject({
        method: 'GET',
        url: '/api/DataSourceCollection/GetByUid/ab%00cd',
        headers: await bearer(),
      });
      expect(byUid.statusCode).toBe(400);
    });

    it('stores refresh tokens and codes only as hashes', async () => {
      const tokens = await signIn(injectClient(ctx().app), {
        publicUrl: TEST_PUBLIC_URL,
        username: 'partner',
        password: 'datalab',
      });
      const refreshToken = tokens.refresh_token ?? '';
      expect(refreshToken).not.toBe('');
      const rows = await ctx().app.db.selectFrom('oidc_payloads').select(['id', 'kind', 'payload']).execute();
      for (const row of rows) expect(`${row.id} ${row.payload}`).not.toContain(refreshToken);
      expect(rows.some((row) => row.kind === 'RefreshToken' && row.id === hashTokenId(refreshToken))).toBe(true);
    });

    if (store === 'sqlite') {
      it('keeps the SQLite file 0600 and its folder 0700', () => {
        const { database } = ctx().config;
        if (database.kind !== 'sqlite') throw new Error('expected the SQLite store');
        expect(statSync(database.file).mode & 0o777).toBe(0o600);
        expect(statSync(dirname(database.file)).mode & 0o777).toBe(0o700);
      });
    }

    it('answers a too-long URL with 414 and oversized headers with 431, in the error shape', async () => {
      const port = await freePort();
      await ctx().app.listen({ host: '127.0.0.1', port });
      const longUrl = await rawRequest(port, `GET /api/x?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      expect(longUrl.status).toBe(414);
      expect(problem.parse(JSON.parse(longUrl.body))).toMatchObject({ status: 414 });
      const midUrl = await rawRequest(
        port,
        `GET /api/x?q=${'a'.repeat(9_000)} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
      );
      expect(midUrl.status).toBe(414);
      const bigHeader = await rawRequest(
        port,
        `GET /api/x HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
      );
      expect(bigHeader.status).toBe(431);
      expect(problem.parse(JSON.parse(bigHeader.body))).toMatchObject({ status: 431 });
    });

    it('gives a request refused before any route (URL too long, token in the URL) the headers every reply carries', async () => {
      const refused = [
        await ctx().app.inject({ method: 'GET', url: `/api/DataSourceCollection/GetAll?q=${'a'.repeat(9_000)}` }),
        await ctx().app.inject({ method: 'GET', url: '/api/DataSourceCollection/GetAll?access_token=abc' }),
      ];
      expect(refused.map((reply) => reply.statusCode)).toEqual([414, 400]);
      for (const reply of refused) {
        expect(reply.headers['x-content-type-options']).toBe('nosniff');
        expect(reply.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
        expect(reply.headers['cache-control']).toBe('no-store');
        expect(reply.headers['x-request-id']).toBe(reply.json().requestId);
      }
    });

    it('serves the app at every portal route whatever Accept says; unknown /api paths stay 404 JSON', async () => {
      for (const url of ['/', '/collection', '/digital-lab/tokens']) {
        for (const accept of [undefined, '*/*', 'application/json']) {
          const response = await ctx().app.inject({
            method: 'GET',
            url,
            headers: { host: 'localhost:8080', ...(accept ? { accept } : {}) },
          });
          expect(response.statusCode, `${url} with ${accept ?? 'no Accept'}`).toBe(200);
          expect(response.headers['content-type']).toMatch(/text\/html/);
        }
      }
      const api = await ctx().app.inject({
        method: 'GET',
        url: '/api/Nothing',
        headers: { accept: 'text/html', host: 'localhost:8080' },
      });
      expect(api.statusCode).toBe(404);
      expect(api.headers['content-type']).toMatch(/application\/json/);
      const missingFile = await ctx().app.inject({
        method: 'GET',
        url: '/missing.png',
        headers: { host: 'localhost:8080' },
      });
      expect(missingFile.statusCode).toBe(404);
    });
  },
  { env: { WEB_DIST_DIR: WEB_DIST } },
);
