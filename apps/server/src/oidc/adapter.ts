import { createHash } from 'node:crypto';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Database } from '../db/database.ts';
import {
  consumePayload,
  deleteExpiredPayloads,
  deleteGrantPayloads,
  deletePayload,
  findPayload,
  upsertPayload,
  type PayloadLookup,
} from './repository.ts';

// oidc-provider keeps sessions, codes, grants and tokens through an adapter; this one keeps them in
// the metadata store, so they survive restarts and are shared by every server instance.

const now = () => Math.floor(Date.now() / 1000);

/**
 * Kinds whose id is itself the bearer secret (the token or code a client presents). They are
 * stored under a hash of the id and without their `jti`, so a copy of the store (a backup, a
 * read-only leak) holds nothing that can be replayed; the id comes back from the caller on lookup.
 */
export const HASHED_KINDS = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

export const hashTokenId = (id: string) => createHash('sha256').update(id).digest('base64url');

export function createStoreAdapter(db: Database) {
  return class StoreAdapter implements Adapter {
    readonly kind: string;

    readonly #hashed: boolean;

    constructor(kind: string) {
      this.kind = kind;
      this.#hashed = HASHED_KINDS.has(kind);
    }

    #key(id: string) {
      return this.#hashed ? hashTokenId(id) : id;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const stored = this.#hashed ? { ...payload, jti: undefined } : payload;
      const row = {
        id: this.#key(id),
        kind: this.kind,
        payload: JSON.stringify(stored),
        grant_id: payload.grantId ?? null,
        user_code: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expires_at: expiresIn ? now() + expiresIn : null,
        consumed_at: null,
      };
      await upsertPayload(db, row);
    }

    async find(id: string) {
      const payload = await this.#findBy('id', this.#key(id));
      return payload && this.#hashed ? { ...payload, jti: id } : payload;
    }

    async findByUserCode(userCode: string) {
      return this.#findBy('user_code', userCode);
    }

    async findByUid(uid: string) {
      return this.#findBy('uid', uid);
    }

    async consume(id: string): Promise<void> {
      await consumePayload(db, this.kind, this.#key(id), now());
    }

    async destroy(id: string): Promise<void> {
      await deletePayload(db, this.kind, this.#key(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await deleteGrantPayloads(db, grantId);
    }

    async #findBy(column: PayloadLookup, value: string): Promise<AdapterPayload | undefined> {
      const row = await findPayload(db, this.kind, column, value);
      if (!row || (row.expires_at !== null && Number(row.expires_at) <= now())) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      return row.consumed_at === null ? payload : { ...payload, consumed: Number(row.consumed_at) };
    }
  };
}

/** Expired rows are dead weight; removed periodically by the oidc plugin. */
export function purgeExpiredPayloads(db: Database): Promise<number> {
  return deleteExpiredPayloads(db, now());
}
