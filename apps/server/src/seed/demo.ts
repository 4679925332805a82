import type { FastifyInstance } from 'fastify';
import { demoAccounts, seedDemoAccounts } from '../oidc/accounts.ts';
import { BUILT_IN_ISSUER_KEY } from '../plugins/auth.ts';
import { provisionUser } from '../modules/users/provisioning.ts';

// The demo of DESIGN §3, seeded on first start in embedded mode. Each step only adds what is missing,
// so it is safe on every start.

export async function seedDemo(app: FastifyInstance): Promise<void> {
  await app.db.transaction().execute(async (trx) => {
    await seedDemoAccounts(trx);
    for (const account of demoAccounts) {
      await provisionUser(
        trx,
        { issuer: BUILT_IN_ISSUER_KEY, subject: account.username, username: account.username, name: account.name, email: account.email },
        { adminSubjects: account.canManageUsers ? [account.username] : [] },
      );
    }
  });
}
