import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { DEMO_SEED_LOCK, lockFor } from '../db/locks.ts';
import type { RoleName } from '../db/schema.ts';
import { demoAccounts, seedDemoAccounts } from '../oidc/accounts.ts';
import { BUILT_IN_ISSUER_KEY } from '../lib/auth-user.ts';
import { nameKey } from '../modules/collections/repository.ts';
import { newUid } from '../modules/collections/service.ts';
import { provisionUser } from '../modules/users/provisioning.ts';
import { changeAccess } from '../modules/access/change-access.service.ts';
import { seedDemoAssets } from './demo-assets.ts';
import { seedDemoWebApi } from './demo-web-api.ts';

// The demo of product §12, seeded in embedded mode. Accounts are ensured on every start; the demo
// collections and groups are seeded once (remembered in app_state), so what people delete stays deleted.

const SEEDED_KEY = 'demo.accessModel.seeded';

const GROUPS = [
  { name: 'Staff', description: 'Everyone employed by the company' },
  {
    name: 'Analysts',
    description: 'Analysts: nested in Staff, so they have what Staff has too; they may create collections',
  },
  { name: 'Partners', description: 'External partners using the Digital Lab area' },
];
const NESTING: [parent: string, child: string][] = [['Staff', 'Analysts']];
const MEMBERS: [group: string, username: string][] = [
  ['Analysts', 'analyst'],
  ['Partners', 'partner'],
];
const COLLECTIONS: { name: string; description: string; groups: [string, RoleName][]; users: [string, RoleName][] }[] =
  [
    {
      name: 'Sales',
      description: 'Orders, customers and regions of the sample shop: the place to start.',
      groups: [
        ['Staff', 'Reader'],
        ['Analysts', 'Editor'],
      ],
      users: [
        ['admin', 'Owner'],
        ['partner', 'Reader'],
      ],
    },
    {
      name: 'Operations',
      description: 'Products and stock levels, for the operations team.',
      groups: [['Staff', 'Reader']],
      users: [['admin', 'Owner']],
    },
  ];

async function seedAccessModel(db: Database, users: Map<string, number>) {
  const at = new Date().toISOString();
  const groupIds = new Map<string, number>();
  for (const group of GROUPS) {
    const row = await db
      .insertInto('user_groups')
      .values({
        name: group.name,
        name_key: nameKey(group.name),
        description: group.description,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    groupIds.set(group.name, row.id);
  }
  const id = (map: Map<string, number>, key: string) => {
    const value = map.get(key);
    if (value === undefined) throw new Error(`demo seed: unknown ${key}`);
    return value;
  };
  for (const [parent, child] of NESTING) {
    await db
      .insertInto('user_group_children')
      .values({ parent_id: id(groupIds, parent), child_id: id(groupIds, child), created_at: at })
      .execute();
  }
  for (const [group, username] of MEMBERS) {
    await db
      .insertInto('user_group_members')
      .values({ group_id: id(groupIds, group), user_id: id(users, username), created_at: at })
      .execute();
  }
  for (const collection of COLLECTIONS) {
    const row = await db
      .insertInto('collections')
      .values({
        uid: newUid(),
        name: collection.name,
        name_key: nameKey(collection.name),
        description: collection.description,
        created_by: id(users, 'admin'),
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [group, role] of collection.groups) {
      await db
        .insertInto('collection_group_roles')
        .values({ collection_id: row.id, group_id: id(groupIds, group), role, created_at: at })
        .execute();
    }
    for (const [username, role] of collection.users) {
      await db
        .insertInto('collection_user_roles')
        .values({ collection_id: row.id, user_id: id(users, username), role, created_at: at })
        .execute();
    }
  }
}

export async function seedDemo(app: FastifyInstance): Promise<void> {
  // Through changeAccess like every other change of users, groups and roles: it bumps the access version.
  await changeAccess(app, async (trx) => {
    // Processes starting together on one store seed once: the others wait here, then find it seeded.
    await lockFor(trx, DEMO_SEED_LOCK);
    await seedDemoAccounts(trx);
    const users = new Map<string, number>();
    for (const account of demoAccounts) {
      const user = await provisionUser(
        trx,
        {
          issuer: BUILT_IN_ISSUER_KEY,
          subject: account.username,
          username: account.username,
          name: account.name,
          email: account.email,
        },
        { adminSubjects: account.canManageUsers ? [account.username] : [] },
      );
      users.set(account.username, user.id);
    }
    const seeded = await trx.selectFrom('app_state').select('value').where('key', '=', SEEDED_KEY).executeTakeFirst();
    if (seeded) return;
    await seedAccessModel(trx, users);
    await trx.insertInto('app_state').values({ key: SEEDED_KEY, value: new Date().toISOString() }).execute();
  });
  await seedDemoAssets(app);
  await seedDemoWebApi(app);
}
