import { join } from 'node:path';
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import boundaries from './boundaries.ts';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const root = process.cwd();
const at = (path: string) => join(root, path);
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2024, sourceType: 'module' } });

tester.run('feature-boundaries', boundaries.rules['feature-boundaries'], {
  valid: [
    {
      filename: at('apps/web/src/features/users/components/UserTable.tsx'),
      code: "import { x } from '../api/get-users.ts';",
    },
    {
      filename: at('apps/web/src/features/users/components/UserTable.tsx'),
      code: "import { x } from '../../../lib/api-client.ts';",
    },
    {
      filename: at('apps/web/src/app/routes/management/Page.tsx'),
      code: "import { x } from '../../../features/users/api/get-users.ts';",
    },
    { filename: at('apps/server/src/modules/collections/routes.ts'), code: "import { x } from '../access/policy.ts';" },
    { filename: at('apps/server/src/modules/collections/routes.ts'), code: "import { x } from './repository.ts';" },
    { filename: at('apps/server/src/modules/collections/routes.ts'), code: "import { x } from '../../lib/errors.ts';" },
  ],
  invalid: [
    {
      filename: at('apps/web/src/features/collections/components/A.tsx'),
      code: "import { UserPicker } from '../../users/components/UserPicker.tsx';",
      errors: [{ messageId: 'crossFeature' }],
    },
    {
      filename: at('apps/web/src/features/collections/keys.ts'),
      code: "export { k } from '../users/keys.ts';",
      errors: [{ messageId: 'crossFeature' }],
    },
    {
      filename: at('apps/server/src/modules/collections/routes.ts'),
      code: "import { q } from '../users/repository.ts';",
      errors: [{ messageId: 'privateModule' }],
    },
    {
      filename: at('apps/server/src/modules/tokens/service.ts'),
      code: "const m = import('../users/routes.ts');",
      errors: [{ messageId: 'privateModule' }],
    },
  ],
});

const upward = (file: string, code: string) => ({
  filename: at(`apps/server/src/${file}`),
  code,
  errors: [{ messageId: 'upward' }],
});
const pastServices = (file: string, code: string) => ({
  filename: at(`apps/server/src/${file}`),
  code,
  errors: [{ messageId: 'pastServices' }],
});

// Type-only imports count: the TypeScript parser reads them.
const tsTester = new RuleTester({ languageOptions: { parser: tseslint.parser, sourceType: 'module' } });

tsTester.run('server-layers', boundaries.rules['server-layers'], {
  valid: [
    // Downward, and within a layer.
    { filename: at('apps/server/src/lib/errors.ts'), code: "import { x } from './validation-messages.ts';" },
    { filename: at('apps/server/src/db/database.ts'), code: "import type { Config } from '../config.ts';" },
    { filename: at('apps/server/src/modules/users/repository.ts'), code: "import { x } from '../../db/prepared.ts';" },
    { filename: at('apps/server/src/modules/users/service.ts'), code: "import { x } from './repository.ts';" },
    { filename: at('apps/server/src/modules/users/service.ts'), code: "import { x } from '../access/policy.ts';" },
    { filename: at('apps/server/src/plugins/auth.ts'), code: "import { x } from '../modules/users/service.ts';" },
    { filename: at('apps/server/src/plugins/oidc.ts'), code: "import { x } from '../oidc/provider.ts';" },
    {
      filename: at('apps/server/src/routing/route.ts'),
      code: "import { x } from '../modules/access/route-access.ts';",
    },
    {
      filename: at('apps/server/src/modules/users/routes.ts'),
      code: "import { route } from '../../routing/route.ts';",
    },
    { filename: at('apps/server/src/modules/health/routes.ts'), code: "import { x } from '../../oidc/accounts.ts';" },
    { filename: at('apps/server/src/app.ts'), code: "import routes from './modules/users/routes.ts';" },
    // The app's seed and test support may read the store directly; tests stand outside the order.
    { filename: at('apps/server/src/seed/demo.ts'), code: "import { x } from '../modules/collections/repository.ts';" },
    { filename: at('apps/server/src/lib/route.test.ts'), code: "import { x } from '../../test/support/app.ts';" },
    {
      filename: at('apps/server/test/support/app.ts'),
      code: "import { x } from '../../src/modules/users/repository.ts';",
    },
    {
      filename: at('apps/server/src/modules/access/matrix-fixture.ts'),
      code: "import { x } from '../../../test/support/app.ts';",
    },
    // Packages and other workspaces are not server layers.
    { filename: at('apps/server/src/lib/errors.ts'), code: "import { x } from '@datalab/contract/messages';" },
    { filename: at('packages/engine/src/index.ts'), code: "import { x } from './connectors/pg.ts';" },
  ],
  invalid: [
    // foundation → anything above it
    upward('lib/route.ts', "import type { AuthUser } from '../plugins/auth.ts';"),
    upward('lib/route.ts', "import { authorizeRoute } from '../modules/access/route-access.ts';"),
    upward('db/locks.ts', "import { x } from '../modules/access/repository.ts';"),
    upward('config.ts', "import { x } from './app.ts';"),
    // repositories → services, plugins
    upward('modules/reporting/repository.ts', "import type { Span } from './period.ts';"),
    upward('modules/users/repository.ts', "import { x } from '../../plugins/auth.ts';"),
    // services → plugins, routes, the app
    upward('modules/collections/service.ts', "import type { AuthUser } from '../../plugins/auth.ts';"),
    upward('modules/calling/call.service.ts', "export type { UsageRecorder } from '../../plugins/usage.ts';"),
    upward('modules/audit/audit.ts', "export * from '../../plugins/app-log.ts';"),
    upward('modules/tokens/service.ts', "const m = import('../../oidc/provider.ts');"),
    upward('oidc/accounts.ts', "import { x } from '../plugins/auth.ts';"),
    upward('oidc/repository.ts', "import { x } from './adapter.ts';"),
    upward('modules/access/route-access.ts', "import { route } from '../../routing/route.ts';"),
    upward('modules/users/presenter.ts', "import routes from './routes.ts';"),
    upward('modules/collections/service.ts', "import { buildApp } from '../../app.ts';"),
    upward('modules/caching/service.ts', "import { x } from './test-world.ts';"),
    // plugins → routes, the app
    upward('plugins/openapi.ts', "import { downloadFileOperation } from '../modules/downloads/routes.ts';"),
    upward('oidc/provider.ts', "import { x } from '../routing/route.ts';"),
    upward('modules/downloads/plugin.ts', "import { x } from './routes.ts';"),
    // routes → the app
    upward('modules/users/routes.ts', "import { x } from '../../seed/demo.ts';"),
    upward('routing/route.ts', "import { x } from '../../test/support/app.ts';"),
    upward('modules/users/service.ts', "import { x } from '../../../test/support/builders.ts';"),
    // plugins and routes skip the services to reach a repository
    pastServices('plugins/auth.ts', "import { findActiveUserById } from '../modules/users/repository.ts';"),
    pastServices('plugins/app-log.ts', "import { insertLog } from '../modules/application-logs/repository.ts';"),
    pastServices('modules/downloads/plugin.ts', "import { countByState } from './repository.ts';"),
    pastServices('modules/user-groups/routes.ts', "import { membersOf } from './repository.ts';"),
    pastServices('modules/data-sources/routes.ts', "import { x } from './parts.repository.ts';"),
  ],
});

const query = (file: string, code: string) => ({
  filename: at(`apps/server/src/${file}`),
  code,
  errors: [{ messageId: 'query' }],
});

tsTester.run('server-sql', boundaries.rules['server-sql'], {
  valid: [
    {
      filename: at('apps/server/src/modules/users/repository.ts'),
      code: "export const f = (db) => db.selectFrom('users').selectAll().execute();",
    },
    {
      filename: at('apps/server/src/modules/data-sources/parts.repository.ts'),
      code: "export const f = (db) => db.deleteFrom('parameters').execute();",
    },
    { filename: at('apps/server/src/db/prepared.ts'), code: "const q = db.selectFrom('users');" },
    { filename: at('apps/server/src/oidc/repository.ts'), code: "await db.deleteFrom('oidc_payloads').execute();" },
    { filename: at('apps/server/src/modules/users/service.ts'), code: 'await actor.db.transaction().execute(work);' },
    { filename: at('apps/server/src/modules/users/service.ts'), code: "const rows = await findUsers(db, 'x');" },
    { filename: at('apps/server/src/seed/demo.ts'), code: "await trx.insertInto('app_state').values(v).execute();" },
    { filename: at('apps/server/src/modules/users/users.test.ts'), code: "await db.selectFrom('users').execute();" },
    { filename: at('apps/server/src/modules/caching/test-world.ts'), code: "await db.insertInto('x').execute();" },
  ],
  invalid: [
    query('modules/dependents/service.ts', "const row = await db.selectFrom('connections').select('name');"),
    query('modules/data-sources/parts.service.ts', "await trx.deleteFrom('transformations').execute();"),
    query('modules/access/access-model.ts', "await db.updateTable('access_version').set(v).execute();"),
    query('modules/connections/reach.ts', "await trx.insertInto('app_state').values(v).execute();"),
    query('modules/access/group-graph.service.ts', "db.withRecursive('up(id)', (qb) => qb).selectAll();"),
    query('modules/reporting/service.ts', 'const q = sql`select 1`;'),
    query('plugins/auth.ts', "await app.db.selectFrom('users').selectAll().execute();"),
    query('oidc/adapter.ts', "await db.deleteFrom('oidc_payloads').where('id', '=', id).execute();"),
    query('modules/users/routes.ts', "await app.db.selectFrom('users').execute();"),
  ],
});
