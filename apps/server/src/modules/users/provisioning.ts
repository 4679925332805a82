import type { Database } from '../../db/database.ts';
import type { User } from '../../db/schema.ts';
import { findUserByIdentity, insertUser, updateUserProfile } from './repository.ts';

// Users are keyed by issuer + subject and created on first sight from their token's claims (product §13).

export interface Identity {
  issuer: string;
  subject: string;
  /** Claims the token did not carry are undefined, and never blank out what is known. */
  name: string | undefined;
  username: string | undefined;
  email: string | undefined;
}

export interface ProvisioningPolicy {
  /** Subjects (`sub`, of the one configured issuer) that hold canManageUsers from their first sign-in. */
  adminSubjects: string[];
}

export async function provisionUser(db: Database, identity: Identity, policy: ProvisioningPolicy): Promise<User> {
  const existing = await findUserByIdentity(db, identity.issuer, identity.subject);
  if (existing) {
    const profile = {
      name: identity.name ?? existing.name,
      username: identity.username ?? existing.username,
      email: identity.email ?? existing.email,
    };
    if (profile.name !== existing.name || profile.username !== existing.username || profile.email !== existing.email) {
      const updated_at = new Date().toISOString();
      await updateUserProfile(db, existing.id, { ...profile, updated_at });
      return { ...existing, ...profile, updated_at };
    }
    return existing;
  }
  const now = new Date().toISOString();
  // The stable subject only: many providers let people choose their preferred_username.
  const isAdmin = policy.adminSubjects.includes(identity.subject);
  try {
    return await insertUser(db, {
      issuer: identity.issuer,
      subject: identity.subject,
      name: identity.name ?? identity.username ?? identity.subject,
      username: identity.username ?? null,
      email: identity.email ?? null,
      can_manage_users: isAdmin,
      is_active: true,
      created_at: now,
      updated_at: now,
    });
  } catch (error) {
    // Two first requests at once: the other one created the row.
    const raced = await findUserByIdentity(db, identity.issuer, identity.subject);
    if (raced) return raced;
    throw error;
  }
}
