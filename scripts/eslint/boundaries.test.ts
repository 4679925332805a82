import { join } from 'node:path';
import { RuleTester } from 'eslint';
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
