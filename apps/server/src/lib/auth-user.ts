// Who is calling, as authentication (plugins/auth.ts) found them: every layer above reads it, none writes it.

export interface AuthUser {
  id: number;
  name: string;
  username: string | null;
  email: string | null;
  canManageUsers: boolean;
  /** The access model's version as this request began (modules/access/access-model.ts). */
  accessVersion: number;
  /** Time spent in authorization checks for this request (reported in Server-Timing). */
  authorizationMs?: number;
  /**
   * Set when a Data Lab token authenticated the request (modules/tokens): a personal access token speaks for its
   * owner (this user) within its roles; a collection token for its collection only (user id 0). Token callers
   * never hold a system permission (canManageUsers is false), and policy.ts narrows their roles.
   */
  token?: TokenCaller;
}

export interface TokenCaller {
  id: number;
  kind: 'personal' | 'collection';
  /** collection id → the token's own rank there (before narrowing by the owner's current roles). */
  ranks: ReadonlyMap<number, number>;
  /** A collection token's collection. */
  collectionId: number | null;
}

/** Users of the built-in provider keep one identity whatever address the server runs at. */
export const BUILT_IN_ISSUER_KEY = 'urn:datalab:builtin';
