import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../test/support/app.ts';
import { route, type RouteContext } from './route.ts';

// The handler context route() builds for every request. Its lazy `actor` lives on the prototype:
// built as an object literal with a getter, each request's context got a hidden class of its own,
// which V8 keeps in the old generation, and every request (~2 kB) was promoted with it
// (bench/RESULTS.md). Every context has the same own properties, in the same order.

const contextCall = {
  method: 'GET',
  path: '/api/Test/Context',
  tag: 'Test',
  summary: 'The handler context, described',
  response: z.object({ own: z.array(z.string()), actorOwn: z.boolean(), actorUser: z.number() }),
} as const;

describe('route handler context', () => {
  let testApp: TestApp;
  const contexts: RouteContext<typeof contextCall>[] = [];

  beforeAll(async () => {
    testApp = await createTestApp('sqlite', {}, (app) => {
      route(app, { ...contextCall, path: '/api/Test/Managers' }, { permission: 'canManageUsers' }, async () => ({
        own: [],
        actorOwn: false,
        actorUser: 0,
      }));
      route(app, contextCall, { signedIn: true }, async (context) => {
        contexts.push(context);
        return {
          own: Object.getOwnPropertyNames(context),
          actorOwn: Object.hasOwn(context, 'actor'),
          actorUser: context.actor.user.id,
        };
      });
    });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  it('builds the actor on demand from a prototype getter, with one shape for every request', async () => {
    const token = await testApp.tokenFor('admin');
    const replies = [];
    for (let index = 0; index < 2; index += 1) {
      replies.push(
        await testApp.app.inject({
          method: 'GET',
          url: contextCall.path,
          headers: { authorization: `Bearer ${token}` },
        }),
      );
    }
    const [first, second] = replies.map((reply) =>
      reply.json<{ own: string[]; actorOwn: boolean; actorUser: number }>(),
    );
    expect(first!.actorOwn).toBe(false);
    expect(first!.own).toEqual(second!.own);
    expect(first!.own).not.toContain('actor');
    expect(first!.actorUser).toEqual(contexts[0]!.user.id);
    expect(contexts[0]!.actor.user).toBe(contexts[0]!.user);
    expect(Object.getPrototypeOf(contexts[0])).toBe(Object.getPrototypeOf(contexts[1]));
  });

  it('reports the authorization time in Server-Timing on a refusal too, and not where nothing is decided', async () => {
    const headers = { authorization: `Bearer ${await testApp.tokenFor('analyst')}` };
    const refused = await testApp.app.inject({ method: 'GET', url: '/api/Test/Managers', headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['server-timing']).toMatch(/^authz;dur=\d+\.\d{3}$/);
    const signedIn = await testApp.app.inject({ method: 'GET', url: contextCall.path, headers });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers['server-timing']).toBeUndefined();
  });

  it('still answers 401 before the handler without a token', async () => {
    const before = contexts.length;
    const reply = await testApp.app.inject({ method: 'GET', url: contextCall.path });
    expect(reply.statusCode).toBe(401);
    expect(contexts.length).toBe(before);
  });
});
