import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PUBLIC_URL } from '../../test/support/app.ts';
import { injectClient } from '../../test/support/http.ts';
import { signIn } from '../../test/support/sign-in.ts';

// The request log line, read from the app's own logger (built with the app's options, its lines
// captured through a stream instead of stdout).

const SECRET = 'do-not-log-me-7f3a';

type Line = Record<string, unknown>;

async function loggedApp(env: Record<string, string>, extend?: (app: FastifyInstance) => void) {
  const lines: Line[] = [];
  const text: string[] = [];
  const capture = {
    write(chunk: string) {
      text.push(chunk);
      for (const line of chunk.split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Line);
    },
  };
  const { app, close } = await createTestApp('sqlite', env, extend, { logDestination: capture });
  return {
    app,
    lines,
    output: () => text.join(''),
    completed: () => lines.filter((line) => line['msg'] === 'request completed'),
    close,
  };
}

describe('request log line', () => {
  let logged: Awaited<ReturnType<typeof loggedApp>>;
  let token: string;

  beforeAll(async () => {
    logged = await loggedApp({ LOG_LEVEL: 'info' }, (app) => {
      // What a route writes through its request's logger, and through a child of it.
      app.get('/test/logs', async (request) => {
        request.log.warn({ step: 1 }, 'a warning from the route');
        request.log.child({ part: 'inner' }).info('from a child');
        request.log.debug('below the level');
        return { ok: true };
      });
      // A route that raises its request's log level: its completed line goes too.
      app.get('/test/quiet', async (request) => {
        request.log.level = 'warn';
        return { ok: true };
      });
    });
    const tokens = await signIn(injectClient(logged.app), {
      publicUrl: TEST_PUBLIC_URL,
      username: 'admin',
      password: 'datalab',
    });
    token = tokens.access_token;
  });
  afterAll(async () => {
    await logged?.close();
  });

  it('writes one line per completed request with method, path, status, duration, user, request id and address', async () => {
    const response = await logged.app.inject({
      method: 'GET',
      url: `/api/Account/GetCurrentUser?password=${SECRET}&page=2`,
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'log-test-request-1' },
    });
    expect(response.statusCode).toBe(200);
    const userId = (response.json() as { id: number }).id;

    const mine = logged.completed().filter((line) => line['reqId'] === 'log-test-request-1');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      level: 30,
      method: 'GET',
      path: '/api/Account/GetCurrentUser',
      status: 200,
      userId,
      remoteAddress: '127.0.0.1',
    });
    expect(mine[0]!['durationMs']).toEqual(expect.any(Number));
    expect(mine[0]!['durationMs']).toBeGreaterThanOrEqual(0);
  });

  it("writes the line byte for byte as pino's own info line with the same fields would be", async () => {
    await logged.app.inject({
      method: 'GET',
      url: '/api/Account/GetCurrentUser',
      headers: { authorization: `Bearer ${token}`, 'x-request-id': 'log-test-request-4' },
    });
    const written = logged
      .output()
      .split('\n')
      .find((text) => text.includes('"reqId":"log-test-request-4"') && text.includes('request completed'))!;
    const line = JSON.parse(written) as Line;
    const before = logged.output().length;
    const { method, path, status, durationMs, userId, remoteAddress } = line;
    logged.app.log
      .child({ reqId: 'log-test-request-4' })
      .info({ method, path, status, durationMs, userId, remoteAddress }, 'request completed');
    const byPino = logged.output().slice(before).trim();
    const withoutTime = (text: string) => text.replace(/"time":\d+/, '"time":0');
    expect(withoutTime(written)).toBe(withoutTime(byPino));
    expect(line).toMatchObject({ level: 30, reqId: 'log-test-request-4', userId: expect.any(Number) });
  });

  it("carries the request id on the lines a route writes through the request's logger and its children", async () => {
    const response = await logged.app.inject({
      method: 'GET',
      url: '/test/logs',
      headers: { 'x-request-id': 'log-test-request-5' },
    });
    expect(response.statusCode).toBe(200);
    const mine = logged.lines.filter((line) => line['reqId'] === 'log-test-request-5');
    expect(mine.map((line) => [line['level'], line['msg']])).toEqual([
      [40, 'a warning from the route'],
      [30, 'from a child'],
      [30, 'request completed'],
    ]);
    expect(mine[0]).toMatchObject({ step: 1 });
    expect(mine[1]).toMatchObject({ part: 'inner' });
    expect(mine.every((line) => typeof line['pid'] === 'number' && typeof line['hostname'] === 'string')).toBe(true);
  });

  it("follows the request logger's own level when a route changes it", async () => {
    const quiet = await logged.app.inject({
      method: 'GET',
      url: '/test/quiet',
      headers: { 'x-request-id': 'log-test-request-6' },
    });
    expect(quiet.statusCode).toBe(200);
    await logged.app.inject({ method: 'GET', url: '/test/logs', headers: { 'x-request-id': 'log-test-request-7' } });
    expect(logged.completed().filter((line) => line['reqId'] === 'log-test-request-6')).toEqual([]);
    expect(logged.completed().filter((line) => line['reqId'] === 'log-test-request-7')).toHaveLength(1);
  });

  it('never writes the query string, the bearer token or the sign-in codes', async () => {
    await logged.app.inject({
      method: 'GET',
      url: `/api/NoSuchThing?password=${SECRET}`,
      headers: { 'x-request-id': 'log-test-request-2' },
    });
    const line = logged.completed().find((entry) => entry['reqId'] === 'log-test-request-2');
    expect(line).toMatchObject({ method: 'GET', path: '/api/NoSuchThing', status: 404 });

    const output = logged.output();
    expect(output).not.toContain(SECRET);
    expect(output).not.toContain(token);
    // The sign-in went through /oidc/auth?…&code_challenge=… and the callback's ?code=…: paths only.
    const paths = logged.completed().map((entry) => String(entry['path']));
    expect(paths.some((path) => path.startsWith('/oidc/'))).toBe(true);
    expect(paths.filter((path) => path.includes('?'))).toEqual([]);
    expect(output).not.toMatch(/code_challenge|[?&]code=/);
  });

  it('leaves the user out of an anonymous request', async () => {
    await logged.app.inject({
      method: 'GET',
      url: '/api/Account/GetCurrentUser',
      headers: { 'x-request-id': 'log-test-request-3' },
    });
    const line = logged.completed().find((entry) => entry['reqId'] === 'log-test-request-3');
    expect(line).toMatchObject({ path: '/api/Account/GetCurrentUser', status: 401 });
    expect(line).not.toHaveProperty('userId');
  });

  it('never logs health probes', async () => {
    const before = logged.lines.length;
    for (const url of ['/health/live', '/health/ready', '/health/ready?probe=1']) {
      expect((await logged.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    }
    expect(logged.lines.slice(before)).toEqual([]);
  });
});

describe('request log line switched off', () => {
  it.each([
    ['LOG_REQUESTS=false', { LOG_LEVEL: 'info', LOG_REQUESTS: 'false' }],
    ['LOG_LEVEL=warn', { LOG_LEVEL: 'warn' }],
  ])('writes no request lines with %s', async (_name, env) => {
    const logged = await loggedApp(env);
    try {
      const response = await logged.app.inject({ method: 'GET', url: '/api/Account/GetCurrentUser' });
      expect(response.statusCode).toBe(401);
      expect(logged.completed()).toEqual([]);
    } finally {
      await logged.close();
    }
  });
});
