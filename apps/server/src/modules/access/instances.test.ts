import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { TEST_PUBLIC_URL, type TestApp } from '../../testing/app.ts';
import { buildCollection, buildGroup, buildPerson } from '../../testing/builders.ts';
import { createPostgresDatabase, isPostgresAvailable } from '../../testing/stores.ts';

// Two server instances on one PostgreSQL store, as behind a load balancer: a change made through
// one holds on the very next request through the other, although each caches the access model.

const postgres = await isPostgresAvailable();

(postgres ? describe : describe.skip)('several instances share the access model [postgres]', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'datalab-instances-'));
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const instance = async (): Promise<TestApp> => {
      const config = loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        PUBLIC_URL: TEST_PUBLIC_URL,
        LOG_LEVEL: 'silent',
        DATABASE_URL: database.url,
        WEB_DIST_DIR: join(dataDir, 'none'),
      });
      const app = await buildApp(config, { logger: false });
      await app.ready();
      return { app, config, tokenFor: () => Promise.reject(new Error('not used')), close: () => app.close() };
    };
    first = await instance();
    second = await instance();
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sees a membership granted and withdrawn on the other instance at the next request', async () => {
    const admin = await buildPerson(first, { canManageUsers: true });
    const owner = await buildPerson(first);
    const member = await buildPerson(first);
    const onSecond = await buildPerson(second, { sub: `instance-member-${member.id}` });
    void onSecond;
    const collection = await buildCollection(first, owner);
    const group = await buildGroup(first, admin);
    await owner.call('PUT', `/api/DataRole/${group.id}/UserGroupDataRoles`, {
      collectionUid: collection.uid,
      role: 'Reader',
    });

    const seenOnSecond = async () => {
      const response = await second.app.inject({
        method: 'GET',
        url: `/api/DataSourceCollection/GetByUid/${collection.uid}`,
        headers: { authorization: `Bearer ${member.token}` },
      });
      return response.statusCode;
    };
    expect(await seenOnSecond()).toBe(404);
    await admin.call('POST', `/api/UserGroup/${group.id}/User/${member.id}`);
    expect(await seenOnSecond()).toBe(200);
    await admin.call('DELETE', `/api/UserGroup/${group.id}/User/${member.id}`);
    expect(await seenOnSecond()).toBe(404);
  });
});
