import { expect, it } from 'vitest';
import { problem, validationProblem } from '@datalab/contract/errors';
import { messages } from '@datalab/contract/messages';
import { texts } from '@datalab/contract/texts';
import { describeApp } from '../../test/support/suite.ts';

const BODY_LIMIT = 4096;

describeApp(
  'platform: replies, limits, headers, documentation',
  (ctx) => {
    const authHeader = async () => ({ authorization: `Bearer ${await ctx().tokenFor('analyst')}` });
    const report = async (payload: string, headers: Record<string, string> = {}) =>
      ctx().app.inject({
        method: 'POST',
        url: '/api/ApplicationLog/ClientErrors',
        headers: { ...(await authHeader()), 'content-type': 'application/json', ...headers },
        payload,
      });

    it('answers an unknown /api path with 404 JSON', async () => {
      const response = await ctx().app.inject({
        method: 'GET',
        url: '/api/NoSuchThing/Here',
        headers: { accept: 'text/html' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/application\/json/);
      expect(problem.parse(response.json())).toMatchObject({ status: 404, title: texts.notFound });
    });

    it('refuses a body over the limit with 413', async () => {
      const response = await report(JSON.stringify({ message: 'x'.repeat(BODY_LIMIT * 2), path: '/' }));
      expect(response.statusCode).toBe(413);
      expect(problem.parse(response.json()).status).toBe(413);
    });

    it('answers malformed JSON with 400 and the errors map', async () => {
      const response = await report('{"message": "oops",');
      expect(response.statusCode).toBe(400);
      const body = validationProblem.parse(response.json());
      expect(body.errors['body']?.[0]).toMatch(/^Malformed JSON/);
    });

    it("words a missing field with product §5's template", async () => {
      const response = await report(JSON.stringify({ path: '/collection' }));
      expect(response.statusCode).toBe(400);
      expect(validationProblem.parse(response.json()).errors).toEqual({ message: [messages.required('Message')] });
    });

    it('writes a reported portal failure to the application log', async () => {
      const response = await report(JSON.stringify({ message: 'Render failed', path: '/collection', stack: 'at X' }));
      expect(response.statusCode).toBe(202);
      const { requestId } = response.json<{ requestId: string }>();
      const row = await ctx()
        .app.db.selectFrom('application_logs')
        .selectAll()
        .where('request_id', '=', requestId)
        .executeTakeFirst();
      expect(row).toMatchObject({ level: 'error', category: 'client', message: 'Render failed' });
    });

    it('hides the internals of a 5xx and logs them under the request id it names', async () => {
      const response = await ctx().app.inject({ method: 'GET', url: '/api/Test/Explode' });
      expect(response.statusCode).toBe(500);
      const body = problem.parse(response.json());
      expect(body).toMatchObject({ title: texts.generic.summary, detail: texts.generic.message });
      expect(response.body).not.toContain('secret internals');
      expect(response.headers['x-request-id']).toBe(body.requestId);
      const row = await ctx()
        .app.db.selectFrom('application_logs')
        .selectAll()
        .where('request_id', '=', body.requestId ?? '')
        .executeTakeFirst();
      expect(row?.message).toBe('secret internals: connection string postgres://x');
    });

    it('keeps a well-formed request id from the caller', async () => {
      const response = await ctx().app.inject({
        method: 'GET',
        url: '/health/live',
        headers: { 'x-request-id': 'trace-12345678' },
      });
      expect(response.headers['x-request-id']).toBe('trace-12345678');
    });

    it('sends a strict Content-Security-Policy and security headers', async () => {
      const response = await ctx().app.inject({ method: 'GET', url: '/health/live' });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toMatch(/script-src 'self'( 'nonce-[0-9a-f]+')?;/);
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
    });

    it.each([
      ['/data/v1/openapi.json', 401],
      ['/api/Account/GetCurrentUser', 401],
      ['/api/DataSourceCollection/GetAll', 401],
      ['/mcp', 405],
    ])('answers %s, data, with the headers for data and a CSP that allows nothing', async (url, status) => {
      const page = await ctx().app.inject({ method: 'GET', url: '/health/live' });
      const data = await ctx().app.inject({ method: 'GET', url });
      expect(data.statusCode).toBe(status);
      expect(data.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      for (const name of [
        'x-content-type-options',
        'x-frame-options',
        'referrer-policy',
        'cross-origin-resource-policy',
      ])
        expect(data.headers[name], name).toBe(page.headers[name]);
      expect(data.headers['cache-control']).toBe('no-store');
      expect(data.headers['x-request-id']).toBeTruthy();
      expect(data.headers['cross-origin-opener-policy']).toBeUndefined();
      expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    });

    it('keeps the document headers on the browsable API documentation', async () => {
      for (const url of ['/api/docs', '/api/docs/']) {
        const docs = await ctx().app.inject({ method: 'GET', url });
        expect(docs.headers['cross-origin-opener-policy'], url).toBe('same-origin');
        expect(String(docs.headers['content-security-policy']), url).toContain("script-src 'self'");
      }
    });

    it('reports liveness and readiness', async () => {
      expect((await ctx().app.inject({ method: 'GET', url: '/health/live' })).json()).toEqual({ status: 'ok' });
      const ready = await ctx().app.inject({ method: 'GET', url: '/health/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ok', checks: { store: 'ok' } });
    });

    it('publishes an OpenAPI document of /api generated from the contract, browsable at /api/docs', async () => {
      const document = (await ctx().app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
        openapi: string;
        paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      }>();
      expect(document.openapi).toMatch(/^3\./);
      expect(document.paths['/api/Account/GetCurrentUser']?.['get']?.responses['200']).toBeDefined();
      expect(document.paths['/api/ApplicationLog/ClientErrors']?.['post']).toBeDefined();
      // The download file route has no contract schema (its body is the file) and is described all the same.
      expect(Object.keys(document.paths['/api/Download/{id}/File']?.['get']?.responses ?? {})).toEqual([
        '200',
        '401',
        '403',
        '404',
      ]);
      expect(
        JSON.stringify(document.paths['/api/DataSourceCollection/GetByUid/{uid}']?.['get']?.responses['200']),
      ).toContain('"createdAt":{"type":"string","format":"date-time"}');
      expect(
        Object.keys(document.paths).every((path) => path.startsWith('/api/') && !path.startsWith('/api/docs')),
      ).toBe(true);
      const page = await ctx().app.inject({ method: 'GET', url: '/api/docs/' });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
    });

    it('tells the portal where to sign in', async () => {
      const response = await ctx().app.inject({ method: 'GET', url: '/portal-config.json' });
      expect(response.json()).toMatchObject({
        authority: 'http://localhost:8080/oidc',
        clientId: 'datalab-portal',
        scopes: ['profile', 'openid', 'email', 'LOS', 'locality', 'country'],
      });
    });
  },
  {
    env: { BODY_LIMIT_BYTES: String(BODY_LIMIT) },
    extend: (app) => {
      app.get('/api/Test/Explode', { config: { access: { public: true } } }, async () => {
        throw new Error('secret internals: connection string postgres://x');
      });
    },
  },
);

describeApp('platform: server timing', (ctx) => {
  it('reports the time spent authorizing a request in Server-Timing', async () => {
    const token = await ctx().tokenFor('admin');
    const list = await ctx().app.inject({
      method: 'GET',
      url: '/api/DataSourceCollection/GetAll',
      headers: { authorization: `Bearer ${token}` },
    });
    const uid = list.json<{ items: { uid: string }[] }>().items[0]?.uid;
    const response = await ctx().app.inject({
      method: 'GET',
      url: `/api/DataSourceCollection/GetByUid/${uid}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['server-timing']).toMatch(/^authz;dur=\d+\.\d{3}$/);
  });
});
