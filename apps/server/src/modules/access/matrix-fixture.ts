import { BUILT_IN_AUDIENCE } from '../../config.ts';
import type { RoleName } from '../../db/schema.ts';
import { TEST_PUBLIC_URL, type TestApp } from '../../../test/support/app.ts';
import { signWithServerKey } from '../../../test/support/tokens.ts';
import { buildDownloadWorld } from './download-matrix-world.ts';
import { buildLogWorld } from './log-matrix-world.ts';
import { buildSqlWorld, type SqlFixture, type SqlHelpers } from './sql-matrix-world.ts';
import { buildTokenWorld, type TokenFixture, type TokenHelpers } from './token-matrix-world.ts';
import { buildWebApiWorld, type WebApiFixture, type WebApiHelpers } from './web-api-matrix-world.ts';

// The callers of the authorization matrix and the world they act in, written straight to the store
// (the matrix tests authorization, not the services).

export const personas = ['signedOut', 'plain', 'reader', 'editor', 'owner', 'nestedOwner', 'admin', 'partner'] as const;
export type Persona = (typeof personas)[number];

/** Members of this group may create collections in the matrix's app. */
export const MATRIX_CREATORS = 'Matrix creators';

export interface Fixture {
  /** Reader, Editor and Owner directly; Owner also through Outer ⊃ Middle ⊃ Inner ∋ nestedOwner. */
  collection: string;
  assetUid: string;
  /** An empty group with no roles, and a second one nested in it. */
  group: number;
  child: number;
  grantee: number;
  bystander: number;
  ids: Record<Persona, number>;
  /** A SQLite connection, the asset's parameter and transformation (sql-matrix-world.ts). */
  sql: SqlFixture;
  /** A collection token of the collection and a personal access token of its Owner (token-matrix-world.ts). */
  tokens: TokenFixture;
  /** A Web API connection with a credential, and a Web API asset (web-api-matrix-world.ts). */
  webApi: WebApiFixture;
  /** An application-log record (log-matrix-rows.ts). */
  logRecord: number;
  /** A Completed download job of the reader, with its file (download-matrix-rows.ts). */
  downloadJob: string;
}

export interface Helpers {
  freshCollection: () => Promise<string>;
  freshGroup: () => Promise<number>;
  unique: () => string;
  sql: SqlHelpers;
  tokens: TokenHelpers;
  webApi: WebApiHelpers;
}

export interface MatrixWorld {
  tokens: Map<Persona, string>;
  fixture: Fixture;
  helpers: Helpers;
}

export async function buildMatrixWorld(t: TestApp): Promise<MatrixWorld> {
  const { app, config } = t;
  const db = app.db;
  const now = Math.floor(Date.now() / 1000);
  const at = new Date().toISOString();
  let counter = 0;
  const unique = () => `${Date.now().toString(36)}-${(counter += 1)}`;
  const provision = async (sub: string) => {
    const claims = {
      iss: `${TEST_PUBLIC_URL}/oidc`,
      aud: BUILT_IN_AUDIENCE,
      sub,
      name: `Matrix ${sub}`,
      iat: now,
      exp: now + 3600,
    };
    const token = await signWithServerKey(config.dataDir, claims);
    const response = await app.inject({
      method: 'GET',
      url: '/api/Account/GetCurrentUser',
      headers: { authorization: `Bearer ${token}` },
    });
    return { token, id: response.json<{ id: number }>().id };
  };
  const tokens = new Map<Persona, string>();
  const ids = {} as Record<Persona, number>;
  for (const persona of personas.filter((p) => p !== 'signedOut')) {
    const { token, id } = await provision(`matrix-${persona}-${unique()}`);
    tokens.set(persona, token);
    ids[persona] = id;
  }
  await db.updateTable('users').set({ can_manage_users: 1 }).where('id', '=', ids.admin).execute();
  const grantee = (await provision(`matrix-grantee-${unique()}`)).id;
  const bystander = (await provision(`matrix-bystander-${unique()}`)).id;

  const makeGroup = async (name = `Matrix group ${unique()}`) =>
    (
      await db
        .insertInto('user_groups')
        .values({ name, name_key: name.toLowerCase(), description: '', created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  const nest = (parent: number, child: number) =>
    db.insertInto('user_group_children').values({ parent_id: parent, child_id: child, created_at: at }).execute();
  const join = (group: number, user: number) =>
    db.insertInto('user_group_members').values({ group_id: group, user_id: user, created_at: at }).execute();

  // Owner through a group nested two levels deep: Outer holds Owner; Outer ⊃ Middle ⊃ Inner ∋ nestedOwner.
  const [outer, middle, inner] = [await makeGroup(), await makeGroup(), await makeGroup()];
  await nest(outer, middle);
  await nest(middle, inner);
  await join(inner, ids.nestedOwner);
  // The partner reads another collection through their Partners group; the editor may create collections.
  const partners = await makeGroup();
  await join(partners, ids.partner);
  await join(await makeGroup(MATRIX_CREATORS), ids.editor);

  const makeCollection = async (users: [number, RoleName][], groups: [number, RoleName][]) => {
    const name = `Matrix ${unique()}`;
    const row = await db
      .insertInto('collections')
      .values({
        uid: `m-${unique()}`,
        name,
        name_key: name.toLowerCase(),
        description: '',
        created_by: ids.owner,
        created_at: at,
        updated_at: at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    for (const [user_id, role] of users)
      await db
        .insertInto('collection_user_roles')
        .values({ collection_id: row.id, user_id, role, created_at: at })
        .execute();
    for (const [group_id, role] of groups)
      await db
        .insertInto('collection_group_roles')
        .values({ collection_id: row.id, group_id, role, created_at: at })
        .execute();
    await app.access.bump(db);
    return row;
  };
  const targetRoles: [number, RoleName][] = [
    [ids.owner, 'Owner'],
    [ids.editor, 'Editor'],
    [ids.reader, 'Reader'],
  ];
  const target = await makeCollection(targetRoles, [[outer, 'Owner']]);
  await makeCollection([[bystander, 'Owner']], [[partners, 'Reader']]);
  const assetUid = `asset-${unique()}`;
  const asset = await db
    .insertInto('data_sources')
    .values({ uid: assetUid, collection_id: target.id, name: 'Orders', kind: 'sql', created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  const sqlWorld = await buildSqlWorld(db, config.dataDir, target.id, assetUid, unique);
  const tokenWorld = await buildTokenWorld(db, target.id, ids.owner, unique);
  const webApiWorld = await buildWebApiWorld(db, app.sqlRuntime.box, target.id, unique);
  const logWorld = await buildLogWorld(db);
  const downloadWorld = await buildDownloadWorld(db, config.downloads.dir, ids.reader, {
    id: asset.id,
    uid: assetUid,
    collectionId: target.id,
  });
  const group = await makeGroup();
  const child = await makeGroup();
  await app.access.bump(db);

  return {
    tokens,
    fixture: {
      collection: target.uid,
      assetUid,
      group,
      child,
      grantee,
      bystander,
      ids,
      sql: sqlWorld.fixture,
      tokens: tokenWorld.fixture,
      webApi: webApiWorld.fixture,
      logRecord: logWorld.recordId,
      downloadJob: downloadWorld.jobId,
    },
    helpers: {
      freshCollection: async () => (await makeCollection(targetRoles, [[outer, 'Owner']])).uid,
      freshGroup: () => makeGroup(),
      unique,
      sql: sqlWorld.helpers,
      tokens: tokenWorld.helpers,
      webApi: webApiWorld.helpers,
    },
  };
}
