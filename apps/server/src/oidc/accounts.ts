import type { Database } from '../db/database.ts';
import { hashPassword, verifyPassword } from '../lib/passwords.ts';
import { BUILT_IN_ISSUER_KEY } from '../lib/auth-user.ts';
import { findUserByIdentity } from '../modules/users/service.ts';
import { findDemoAccount, insertDemoAccount } from './repository.ts';

export { findDemoAccount, listDemoAccounts } from './repository.ts';

// The built-in provider's accounts: the demo accounts of product §12, for the embedded mode and tests.

export interface DemoAccount {
  username: string;
  name: string;
  email: string;
  description: string;
  canManageUsers: boolean;
}

export const DEMO_PASSWORD = 'datalab';

export const demoAccounts: DemoAccount[] = [
  {
    username: 'admin',
    name: 'Ada Admin',
    email: 'admin@datalab.local',
    description: 'Administrator: manages users, groups, cache and logs',
    canManageUsers: true,
  },
  {
    username: 'analyst',
    name: 'Alan Analyst',
    email: 'analyst@datalab.local',
    description: 'Analyst: reaches collections through group roles',
    canManageUsers: false,
  },
  {
    username: 'partner',
    name: 'Pat Partner',
    email: 'partner@datalab.local',
    description: 'External partner: uses the Digital Lab area',
    canManageUsers: false,
  },
];

export async function seedDemoAccounts(db: Database): Promise<void> {
  for (const account of demoAccounts) {
    if (await findDemoAccount(db, account.username)) continue;
    await insertDemoAccount(db, {
      username: account.username,
      password_hash: await hashPassword(DEMO_PASSWORD),
      name: account.name,
      email: account.email,
      description: account.description,
      can_manage_users: account.canManageUsers,
    });
  }
}

/** Checks a username and password; undefined when they do not match. */
export async function authenticateDemoAccount(db: Database, username: string, password: string) {
  const account = await findDemoAccount(db, username);
  if (!account) {
    await hashPassword(password); // same work either way, so timing does not reveal which usernames exist
    return undefined;
  }
  if (!(await verifyPassword(password, account.password_hash))) return undefined;
  return (await isDeactivated(db, username)) ? undefined : account;
}

/** A deactivated user is refused at sign-in and at every later use of a session or refresh token. */
export async function isDeactivated(db: Database, username: string): Promise<boolean> {
  const user = await findUserByIdentity(db, BUILT_IN_ISSUER_KEY, username);
  return Boolean(user && !user.is_active);
}
