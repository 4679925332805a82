import { getCurrentUser } from '@datalab/contract/api/account';
import { describe, expect, it } from 'vitest';
import { route } from '../../routing/route.ts';
import { createTestApp } from '../../../test/support/app.ts';
import type { RouteAccess } from './route-access.ts';

// Every /api route states who may call it; the app refuses to start with one that does not.

describe('route declarations', () => {
  it('refuses to start with an /api route registered without an access requirement', async () => {
    const build = createTestApp('sqlite', {}, (app) => {
      app.get('/api/Test/Undeclared', async () => ({ ok: true }));
    });
    await expect(build).rejects.toThrow('GET /api/Test/Undeclared states no access requirement');
  });

  it('refuses a route() call whose declaration states nothing', async () => {
    const build = createTestApp('sqlite', {}, (app) => {
      const call = { ...getCurrentUser, path: '/api/Test/Empty' };
      route(app, call, {} as RouteAccess, async ({ user }) => ({
        ...user,
        permissions: { canManageUsers: false },
        canCreateCollections: false,
        canUseDigitalLab: false,
        isDigitalLabOnly: false,
      }));
    });
    await expect(build).rejects.toThrow('GET /api/Test/Empty states no access requirement');
  });

  it('starts with a declared one', async () => {
    const t = await createTestApp('sqlite', {}, (app) => {
      app.get('/api/Test/Declared', { config: { access: { public: true } } }, async () => ({ ok: true }));
    });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/Test/Declared' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
