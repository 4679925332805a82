import pg from 'pg';
import { MAX_GROUP_DEPTH } from '../../packages/contract/src/api/user-groups.ts';

// The dataset, written straight into a migrated store with generate_series: 10,000 users,
// 1,000 groups in chains nested to the maximum depth, 1,000 collections, roles for groups and users.
// Ids start high so they never meet the demo seed's. The `analyst` account joins 20 groups at the
// bottom of chains, the deepest case for the membership walk.

export const SIZES = { users: 10_000, groups: 1_000, collections: 1_000, analystGroups: 20 };
const USER0 = 300_000;
const GROUP0 = 100_000;
const COLLECTION0 = 200_000;

export async function populateAccessDataset(databaseUrl: string): Promise<{ analystGroupIds: number[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const depth = MAX_GROUP_DEPTH;
  const at = new Date().toISOString();
  try {
    await client.query('begin');
    await client.query(
      `insert into users (id, issuer, subject, username, name, email, can_manage_users, is_active, created_at, updated_at)
       select $1::int + g, 'urn:bench', 'u' || g, 'user' || g, 'User ' || g, 'user' || g || '@bench.local', 0, 1, $2, $2
       from generate_series(1, $3::int) g`,
      [USER0, at, SIZES.users],
    );
    await client.query(
      `insert into user_groups (id, name, name_key, description, created_at, updated_at)
       select $1::int + g, 'Bench group ' || g, 'bench group ' || g, '', $2, $2 from generate_series(1, $3::int) g`,
      [GROUP0, at, SIZES.groups],
    );
    // Chains of `depth` groups: g → g+1 inside each chain.
    await client.query(
      `insert into user_group_children (parent_id, child_id, created_at)
       select $1::int + g, $1::int + g + 1, $2 from generate_series(1, $3::int - 1) g where g % $4::int <> 0`,
      [GROUP0, at, SIZES.groups, depth],
    );
    await client.query(
      `insert into collections (id, uid, name, name_key, description, created_by, created_at, updated_at)
       select $1::int + c, 'bench-' || c, 'Bench collection ' || c, 'bench collection ' || c, 'Collection number ' || c, null, $2, $2
       from generate_series(1, $3::int) c`,
      [COLLECTION0, at, SIZES.collections],
    );
    // Each group is Reader on three collections; each collection has an Owner and a Reader user.
    await client.query(
      `insert into collection_group_roles (collection_id, group_id, role, created_at)
       select distinct $1::int + 1 + ((g * k) % $3::int), $2::int + g, 'Reader', $4
       from generate_series(1, $5::int) g, (values (7), (13), (37)) as m(k)
       on conflict do nothing`,
      [COLLECTION0, GROUP0, SIZES.collections, at, SIZES.groups],
    );
    await client.query(
      `insert into collection_user_roles (collection_id, user_id, role, created_at)
       select $1::int + c, $2::int + 1 + ((c * 10) % $3::int), 'Owner', $4 from generate_series(1, $5::int) c
       union all
       select $1::int + c, $2::int + 1 + ((c * 10 + 5) % $3::int), 'Reader', $4 from generate_series(1, $5::int) c
       on conflict do nothing`,
      [COLLECTION0, USER0, SIZES.users, at, SIZES.collections],
    );
    // Every user is in two groups.
    await client.query(
      `insert into user_group_members (group_id, user_id, created_at)
       select distinct $1::int + 1 + ((u * k) % $3::int), $2::int + u, $4
       from generate_series(1, $5::int) u, (values (1), (7)) as m(k)
       on conflict do nothing`,
      [GROUP0, USER0, SIZES.groups, at, SIZES.users],
    );
    const analyst = await client.query<{ id: number }>(
      `select id from users where username = 'analyst' and issuer = 'urn:datalab:builtin'`,
    );
    const analystId = analyst.rows[0]?.id;
    if (analystId === undefined) throw new Error('the demo analyst is missing');
    const analystGroupIds = Array.from({ length: SIZES.analystGroups }, (_, k) => GROUP0 + (k + 1) * depth);
    await client.query(
      `insert into user_group_members (group_id, user_id, created_at) select unnest($1::int[]), $2, $3 on conflict do nothing`,
      [analystGroupIds, analystId, at],
    );
    await client.query('commit');
    await client.query('analyze');
    return { analystGroupIds };
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
